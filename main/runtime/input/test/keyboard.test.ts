import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InspectorError } from '../../../../shared/model/errors.js';
import { KeyboardController, defaultKeyboardProfile, type KeyboardProfile } from '../keyboard.js';
import { FakeClock, RecordingKeyboard } from './fakes.js';

const zero: KeyboardProfile = {
  pressDelayMs: 0,
  releaseDelayMs: 0,
  betweenKeysDelayMs: 0,
  chordPressDelayMs: 0,
  chordReleaseDelayMs: 0,
  afterSequenceDelayMs: 0,
  afterTextDelayMs: 0,
};

function setup(profile: KeyboardProfile = zero) {
  const clock = new FakeClock();
  const device = new RecordingKeyboard(clock);
  return { clock, device, keyboard: new KeyboardController(device, profile, clock) };
}

describe('KeyboardController', () => {
  it('types text as a press and release per character', async () => {
    const { device, keyboard } = setup();
    await keyboard.type('aB');
    assert.equal(device.trace(), '+a -a +B -B');
    assert.deepEqual(device.events[0]!.state, 'start');
    assert.deepEqual(device.events.at(-1)!.state, 'end');
  });

  it('presses chords in order and releases them in reverse', async () => {
    const { device, keyboard } = setup();
    await keyboard.type('x<Ctrl+Shift+a>y');
    assert.equal(device.trace(), '+x -x +ctrl +shift +a -a -shift -ctrl +y -y');
  });

  it('types multi-chord shortcuts one chord after the other', async () => {
    const { device, keyboard } = setup();
    await keyboard.type('<Ctrl+K Ctrl+C>');
    assert.equal(device.trace(), '+ctrl +k -k -ctrl +ctrl +c -c -ctrl');
  });

  it('resolves a shortcut letter as the key, whatever its case', async () => {
    const { device, keyboard } = setup();
    await keyboard.type('<Ctrl+A>');
    assert.equal(device.trace(), '+ctrl +a -a -ctrl');
  });

  it('types aliases as their keys', async () => {
    const { device, keyboard } = setup();
    await keyboard.type('<Ctrl+PLUS><MINUS><LT><gt>');
    assert.equal(device.trace(), '+ctrl ++ -+ -ctrl +- -- +< -< +> ->');
  });

  it('types newlines and tabs as Enter and Tab, CRLF as one Enter', async () => {
    const { device, keyboard } = setup();
    await keyboard.type('a\r\nb\tc\n');
    assert.equal(device.trace(), '+a -a +enter -enter +b -b +tab -tab +c -c +enter -enter');
  });

  it('press only presses and release releases in reverse order', async () => {
    const { device, keyboard } = setup();
    await keyboard.press('<Ctrl+Shift>');
    assert.equal(device.trace(), '+ctrl +shift');
    device.events.length = 0;
    await keyboard.release('<Ctrl+Shift>');
    assert.equal(device.trace(), '-shift -ctrl');
  });

  it('rejects an unknown key before sending anything, naming it and its position', async () => {
    const { device, keyboard } = setup();
    await assert.rejects(keyboard.type('abc<Ctrl+Bogus>'), (error: unknown) => {
      assert.ok(error instanceof InspectorError);
      assert.equal(error.code, 'unsupported');
      assert.match(error.message, /unsupported key "Bogus" at column 10/);
      assert.equal(error.position?.offset, 9);
      return true;
    });
    assert.equal(device.trace(), '');
  });

  it('rejects a syntax error before sending anything', async () => {
    const { device, keyboard } = setup();
    await assert.rejects(keyboard.type('ab<Ctrl+'), { code: 'invalid-input' });
    assert.equal(device.events.length, 0);
  });

  it('releases held keys when the device fails mid-chord', async () => {
    const { device, keyboard } = setup();
    device.failOnLabel = 'a';
    await assert.rejects(keyboard.type('<Ctrl+Shift+a>'), /device failed on a/);
    assert.equal(device.trace(), '+ctrl +shift -shift -ctrl');
    assert.equal(device.events.at(-1)!.state, 'end');
  });

  it('waits the profile delays at their seams', async () => {
    const profile: KeyboardProfile = {
      pressDelayMs: 1,
      releaseDelayMs: 2,
      betweenKeysDelayMs: 30,
      chordPressDelayMs: 400,
      chordReleaseDelayMs: 5000,
      afterSequenceDelayMs: 60000,
      afterTextDelayMs: 700000,
    };
    const { device, keyboard, clock } = setup(profile);
    await keyboard.type('ab<Ctrl+c>');
    const at = (label: string, state: string) => device.events.find((e) => e.label === label && e.state === state)!.at;
    assert.equal(at('a', 'press'), 0);
    assert.equal(at('a', 'release'), 1);
    assert.equal(at('b', 'press'), 1 + 2 + 30);
    const afterText = 33 + 1 + 2 + 700000;
    assert.equal(at('ctrl', 'press'), afterText + 30);
    assert.equal(at('c', 'press'), afterText + 30 + 400);
    assert.equal(at('c', 'release'), afterText + 30 + 400 + 1);
    assert.equal(at('ctrl', 'release'), afterText + 30 + 400 + 1 + 5000);
    assert.equal(clock.time, afterText + 30 + 400 + 1 + 5000 + 2 + 60000);
  });

  it('applies per-call overrides on top of the profile', async () => {
    const { keyboard, clock } = setup();
    await keyboard.type('ab', { betweenKeysDelayMs: 100, afterSequenceDelayMs: undefined });
    assert.equal(clock.time, 100);
  });

  it('has a default profile with every timing field', () => {
    for (const value of Object.values(defaultKeyboardProfile)) assert.ok(value >= 0);
    assert.equal(Object.keys(defaultKeyboardProfile).length, 7);
  });
});
