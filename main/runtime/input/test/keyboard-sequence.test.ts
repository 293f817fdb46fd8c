import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InspectorError } from '../../../../shared/model/errors.js';
import { resolveSymbolAlias } from '../../../../shared/model/key-aliases.js';
import { KeyboardSequence, shortcutKeyName, type SequenceStep } from '../keyboard-sequence.js';

const steps = (source: string): SequenceStep[] => [...KeyboardSequence.parse(source).steps()];
const names = (source: string) =>
  steps(source).map((s) => (s.kind === 'text' ? s.text : s.chords.map((c) => c.map((k) => k.name))));

function parseError(source: string): InspectorError {
  try {
    KeyboardSequence.parse(source);
  } catch (error) {
    assert.ok(error instanceof InspectorError, 'an InspectorError');
    return error;
  }
  assert.fail(`"${source}" should not parse`);
}

describe('KeyboardSequence', () => {
  it('mixes text and shortcuts', () => {
    assert.deepEqual(names('text<Ctrl+a><Ctrl+Delete>Hello'), ['text', [['Ctrl', 'a']], [['Ctrl', 'Delete']], 'Hello']);
  });

  it('keeps the offsets of text runs and key names', () => {
    const parsed = steps('ab<Ctrl+K>');
    assert.deepEqual(parsed[0], { kind: 'text', text: 'ab', offset: 0 });
    assert.equal(parsed[1]!.offset, 2);
    assert.deepEqual(parsed[1]!.kind === 'shortcut' && parsed[1]!.chords[0], [
      { name: 'Ctrl', offset: 3 },
      { name: 'K', offset: 8 },
    ]);
  });

  it('reads multi-chord shortcuts separated by whitespace', () => {
    assert.deepEqual(names('<Ctrl+K Ctrl+C>'), [
      [
        ['Ctrl', 'K'],
        ['Ctrl', 'C'],
      ],
    ]);
    assert.deepEqual(names('<  Ctrl+K   Alt+Shift+F1  >'), [
      [
        ['Ctrl', 'K'],
        ['Alt', 'Shift', 'F1'],
      ],
    ]);
  });

  it('unescapes delimiters, backslash and code points', () => {
    assert.deepEqual(names('a\\<b\\>c\\\\d'), ['a<b>c\\d']);
    assert.deepEqual(names('\\x41\\x7a'), ['Az']);
    assert.deepEqual(names('\\u00e4\\u20AC'), ['ä€']);
    assert.deepEqual(names('\\uD83D\\uDE00!'), ['😀!']);
    assert.deepEqual(names('x\\<y<Enter>'), ['x<y', [['Enter']]]);
  });

  it('turns symbol aliases into their characters, in any case', () => {
    assert.deepEqual(names('<Ctrl+PLUS><ctrl+minus><LESS><lt><Greater><GT>'), [
      [['Ctrl', '+']],
      [['ctrl', '-']],
      [['<']],
      [['<']],
      [['>']],
      [['>']],
    ]);
    assert.equal(resolveSymbolAlias('Plus'), '+');
    assert.equal(resolveSymbolAlias('Enter'), 'Enter');
  });

  it('treats a single letter in a shortcut as the key, not the character', () => {
    assert.equal(shortcutKeyName('A'), 'a');
    assert.equal(shortcutKeyName('Ä'), 'ä');
    assert.equal(shortcutKeyName('1'), '1');
    assert.equal(shortcutKeyName('Delete'), 'Delete');
  });

  it('parses the empty string to no steps', () => {
    assert.equal(KeyboardSequence.parse('').isEmpty, true);
    assert.deepEqual(names(''), []);
  });

  it('reports syntax errors with their position', () => {
    const cases: Array<[string, number, RegExp]> = [
      ['ab<Ctrl+a', 2, /unterminated shortcut/],
      ['<>', 0, /empty shortcut/],
      ['x<Ctrl+>', 7, /missing key name after '\+'/],
      ['<Ctrl+ K>', 6, /missing key name after '\+'/],
      ['<+a>', 1, /use PLUS/],
      ['<Ctrl++>', 6, /use PLUS/],
      ['ab>c', 2, /unexpected '>'/],
      ['<a<b>', 2, /LESS or LT/],
      ['<Ctrl+\\+>', 6, /escapes are not allowed/],
      ['abc\\', 3, /backslash at the end/],
      ['a\\q', 1, /unknown escape \\q/],
      ['\\x4', 0, /two hexadecimal digits/],
      ['\\xZZ', 0, /two hexadecimal digits/],
      ['\\u12', 0, /four hexadecimal digits/],
      ['\\uD83Dx', 0, /high surrogate/],
      ['\\uDE00', 0, /lone low surrogate/],
    ];
    for (const [source, offset, message] of cases) {
      const error = parseError(source);
      assert.equal(error.code, 'invalid-input', source);
      assert.match(error.message, message, source);
      assert.equal(error.position?.offset, offset, `offset for ${source}`);
      assert.equal(error.position?.column, offset + 1, `column for ${source}`);
      assert.match(error.message, new RegExp(`column ${offset + 1}$`), source);
    }
  });

  it('counts lines in multi-line sequences', () => {
    const error = parseError('line one\nline <two');
    assert.deepEqual(error.position, { line: 2, column: 6, offset: 14 });
  });
});
