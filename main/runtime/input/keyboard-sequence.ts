import { InspectorError, positionAt } from '../../../shared/model/errors.js';
import { resolveSymbolAlias } from '../../../shared/model/key-aliases.js';

/**
 * KeyboardSequence (PlatynUI §8): one human-friendly string mixing literal text with shortcut notation, e.g.
 * `text<Ctrl+a><Ctrl+Delete>Hello`.
 *
 * - Outside brackets every character is typed literally; `\<`, `\>` and `\\` are the delimiters and the backslash,
 *   `\xNN` and `\uNNNN` characters by code point (a surrogate pair of `\u` escapes forms one character).
 * - `<...>` holds one or more chords separated by whitespace (`<Ctrl+K Ctrl+C>`); a chord is key names joined by `+`,
 *   pressed in order and released in reverse order.
 * - Key names are case-insensitive; `+ - < >` are written by their aliases PLUS, MINUS, LESS/LT, GREATER/GT.
 *
 * The syntax is checked when the sequence is parsed (errors name the position); the steps are produced lazily.
 */

export interface SequenceKey {
  /** Key name or single character as written (aliases already turned into their character). */
  name: string;
  /** Offset of the key name in the source text. */
  offset: number;
}

export type SequenceStep =
  | { kind: 'text'; text: string; offset: number }
  | { kind: 'shortcut'; chords: readonly (readonly SequenceKey[])[]; offset: number };

function syntaxError(source: string, offset: number, message: string): InspectorError {
  const position = positionAt(source, offset);
  return new InspectorError('invalid-input', `keyboard sequence: ${message} at column ${position.column}`, {
    position,
  });
}

const isHex = (text: string) => /^[0-9a-fA-F]+$/.test(text);
const isSpace = (char: string) => char === ' ' || char === '\t' || char === '\n' || char === '\r';

export class KeyboardSequence {
  readonly source: string;
  private readonly parsed: readonly SequenceStep[];

  private constructor(source: string, steps: readonly SequenceStep[]) {
    this.source = source;
    this.parsed = steps;
  }

  /** Parses and checks the syntax; throws InspectorError('invalid-input') naming the position. */
  static parse(source: string): KeyboardSequence {
    return new KeyboardSequence(source, [...scanSequence(source)]);
  }

  /** The steps in order: text runs and shortcuts. */
  *steps(): Generator<SequenceStep> {
    yield* this.parsed;
  }

  get isEmpty(): boolean {
    return this.parsed.length === 0;
  }
}

function* scanSequence(source: string): Generator<SequenceStep> {
  let text = '';
  let textStart = 0;
  let i = 0;
  const flushText = function* (): Generator<SequenceStep> {
    if (text.length > 0) yield { kind: 'text', text, offset: textStart };
    text = '';
  };
  while (i < source.length) {
    const char = source.charAt(i);
    if (char === '\\') {
      if (text.length === 0) textStart = i;
      const [value, next] = readEscape(source, i);
      text += value;
      i = next;
      continue;
    }
    if (char === '<') {
      yield* flushText();
      const [step, next] = readShortcut(source, i);
      yield step;
      i = next;
      continue;
    }
    if (char === '>') throw syntaxError(source, i, "unexpected '>' outside a shortcut (write \\> for the character)");
    if (text.length === 0) textStart = i;
    text += char;
    i++;
  }
  yield* flushText();
}

function readEscape(source: string, start: number): [string, number] {
  const kind = source.charAt(start + 1);
  if (kind === '') throw syntaxError(source, start, 'backslash at the end (write \\\\ for a backslash)');
  if (kind === '<' || kind === '>' || kind === '\\') return [kind, start + 2];
  if (kind === 'x') {
    const digits = source.slice(start + 2, start + 4);
    if (digits.length !== 2 || !isHex(digits)) {
      throw syntaxError(source, start, '\\x needs exactly two hexadecimal digits (\\xNN)');
    }
    return [String.fromCharCode(parseInt(digits, 16)), start + 4];
  }
  if (kind === 'u') {
    const digits = source.slice(start + 2, start + 6);
    if (digits.length !== 4 || !isHex(digits)) {
      throw syntaxError(source, start, '\\u needs exactly four hexadecimal digits (\\uNNNN)');
    }
    const unit = parseInt(digits, 16);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const low = source.slice(start + 6, start + 12);
      const lowUnit = /^\\u[0-9a-fA-F]{4}$/.test(low) ? parseInt(low.slice(2), 16) : -1;
      if (lowUnit < 0xdc00 || lowUnit > 0xdfff) {
        throw syntaxError(source, start, `\\u${digits} is a high surrogate and must be followed by a low one`);
      }
      return [String.fromCharCode(unit, lowUnit), start + 12];
    }
    if (unit >= 0xdc00 && unit <= 0xdfff) {
      throw syntaxError(source, start, `\\u${digits} is a lone low surrogate`);
    }
    return [String.fromCharCode(unit), start + 6];
  }
  throw syntaxError(source, start, `unknown escape \\${kind} (known: \\< \\> \\\\ \\xNN \\uNNNN)`);
}

function readShortcut(source: string, start: number): [SequenceStep, number] {
  const chords: SequenceKey[][] = [];
  let chord: SequenceKey[] = [];
  let name = '';
  let nameStart = -1;
  let expectKey = true;
  let i = start + 1;
  const endName = () => {
    if (name.length > 0) chord.push({ name: resolveSymbolAlias(name), offset: nameStart });
    name = '';
    nameStart = -1;
  };
  while (i < source.length) {
    const char = source.charAt(i);
    if (char === '>') {
      endName();
      if (chord.length === 0 && chords.length === 0) throw syntaxError(source, start, 'empty shortcut <>');
      if (expectKey && chord.length > 0) throw syntaxError(source, i, "missing key name after '+'");
      if (chord.length > 0) chords.push(chord);
      return [{ kind: 'shortcut', chords, offset: start }, i + 1];
    }
    if (char === '<') {
      throw syntaxError(source, i, "unexpected '<' inside a shortcut (use the key name LESS or LT)");
    }
    if (char === '\\') {
      throw syntaxError(source, i, 'escapes are not allowed inside a shortcut (use key names or aliases)');
    }
    if (char === '+') {
      if (name.length === 0) {
        throw syntaxError(
          source,
          i,
          expectKey ? "missing key name before '+' (use PLUS for the + key)" : "unexpected '+'",
        );
      }
      endName();
      expectKey = true;
      i++;
      continue;
    }
    if (isSpace(char)) {
      if (name.length > 0) {
        endName();
        expectKey = false;
      } else if (expectKey && chord.length > 0) {
        throw syntaxError(source, i, "missing key name after '+'");
      }
      if (!expectKey && chord.length > 0) {
        chords.push(chord);
        chord = [];
        expectKey = true;
      }
      i++;
      continue;
    }
    if (name.length === 0) nameStart = i;
    name += char;
    expectKey = false;
    i++;
  }
  throw syntaxError(source, start, "unterminated shortcut: '<' without a closing '>' (write \\< for the character)");
}

/**
 * Within a shortcut a single letter names the key, not the character: `<Ctrl+A>` is the same as `<Ctrl+a>`.
 * Other names pass through (the device resolves them case-insensitively).
 */
export function shortcutKeyName(name: string): string {
  if ([...name].length === 1 && name.toLowerCase() !== name.toUpperCase()) return name.toLowerCase();
  return name;
}
