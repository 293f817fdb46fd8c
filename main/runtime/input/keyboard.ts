import { InspectorError, positionAt } from '../../../shared/model/errors.js';
import type { KeyCode, KeyState, KeyboardDevice } from '../../core/platform.js';
import { KeyboardSequence, shortcutKeyName } from './keyboard-sequence.js';
import { applyOverrides, realClock, type InputClock } from './timing.js';

/**
 * The runtime's keyboard entry points (PlatynUI §8): type, press and release a KeyboardSequence over a platform
 * KeyboardDevice, with the timing of a KeyboardProfile. All key names are resolved before the first event is sent,
 * so an unknown key never leaves half a sequence typed; keys still held when something fails are released.
 */

export interface KeyboardProfile {
  /** After a key goes down, before it comes up again (typing). */
  pressDelayMs: number;
  /** After a key comes up. */
  releaseDelayMs: number;
  /** Between two characters of text or two chords of a shortcut. */
  betweenKeysDelayMs: number;
  /** Between pressing the keys of one chord. */
  chordPressDelayMs: number;
  /** Between releasing the keys of one chord. */
  chordReleaseDelayMs: number;
  /** After the whole sequence. */
  afterSequenceDelayMs: number;
  /** After a run of literal text. */
  afterTextDelayMs: number;
}

export type KeyboardOverrides = Partial<KeyboardProfile>;

export const defaultKeyboardProfile: Readonly<KeyboardProfile> = Object.freeze({
  pressDelayMs: 4,
  releaseDelayMs: 2,
  betweenKeysDelayMs: 6,
  chordPressDelayMs: 8,
  chordReleaseDelayMs: 4,
  afterSequenceDelayMs: 20,
  afterTextDelayMs: 10,
});

export type KeyboardMode = 'type' | 'press' | 'release';

type ResolvedStep = { kind: 'text'; keys: KeyCode[] } | { kind: 'shortcut'; chords: KeyCode[][] };

function characterKeyName(char: string): string {
  if (char === '\n' || char === '\r') return 'Enter';
  if (char === '\t') return 'Tab';
  return char;
}

function unsupportedKey(sequence: KeyboardSequence, offset: number, name: string, cause: unknown): InspectorError {
  const position = positionAt(sequence.source, offset);
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new InspectorError('unsupported', `unsupported key "${name}" at column ${position.column}: ${reason}`, {
    position,
  });
}

/** Resolves every key of a sequence through the device; throws an unsupported-key error naming the position. */
export function resolveSequence(device: KeyboardDevice, sequence: KeyboardSequence): ResolvedStep[] {
  const resolve = (name: string, offset: number): KeyCode => {
    try {
      return device.keyCode(name);
    } catch (error) {
      throw unsupportedKey(sequence, offset, name, error);
    }
  };
  const steps: ResolvedStep[] = [];
  for (const step of sequence.steps()) {
    if (step.kind === 'text') {
      const keys: KeyCode[] = [];
      let offset = step.offset;
      const text = step.text.replace(/\r\n/g, '\n');
      for (const char of text) {
        keys.push(resolve(characterKeyName(char), offset));
        offset += char.length;
      }
      steps.push({ kind: 'text', keys });
    } else {
      steps.push({
        kind: 'shortcut',
        chords: step.chords.map((chord) => chord.map((key) => resolve(shortcutKeyName(key.name), key.offset))),
      });
    }
  }
  return steps;
}

export class KeyboardController {
  private readonly device: KeyboardDevice;
  private readonly profile: KeyboardProfile;
  private readonly clock: InputClock;

  constructor(device: KeyboardDevice, profile: KeyboardProfile = defaultKeyboardProfile, clock = realClock) {
    this.device = device;
    this.profile = { ...profile };
    this.clock = clock;
  }

  /** Press and release each step: ordinary typing. */
  type(sequence: string | KeyboardSequence, overrides?: KeyboardOverrides): Promise<void> {
    return this.run(sequence, 'type', overrides);
  }

  /** Only press, in order (holding modifiers down). */
  press(sequence: string | KeyboardSequence, overrides?: KeyboardOverrides): Promise<void> {
    return this.run(sequence, 'press', overrides);
  }

  /** Only release, in reverse order. */
  release(sequence: string | KeyboardSequence, overrides?: KeyboardOverrides): Promise<void> {
    return this.run(sequence, 'release', overrides);
  }

  private async run(
    input: string | KeyboardSequence,
    mode: KeyboardMode,
    overrides: KeyboardOverrides | undefined,
  ): Promise<void> {
    const sequence = typeof input === 'string' ? KeyboardSequence.parse(input) : input;
    const steps = resolveSequence(this.device, sequence);
    const timing = applyOverrides(this.profile, overrides);
    const held: KeyCode[] = [];
    const send = async (key: KeyCode, state: KeyState, delayMs: number) => {
      await this.device.send(key, state);
      if (state === 'press') held.push(key);
      else {
        const index = held.lastIndexOf(key);
        if (index >= 0) held.splice(index, 1);
      }
      await this.clock.sleep(delayMs);
    };
    await this.device.startInput?.();
    try {
      if (mode === 'release') {
        await this.releaseAll(steps, timing, send);
      } else {
        for (let s = 0; s < steps.length; s++) {
          const step = steps[s]!;
          if (s > 0) await this.clock.sleep(timing.betweenKeysDelayMs);
          if (step.kind === 'text') {
            for (let k = 0; k < step.keys.length; k++) {
              const key = step.keys[k]!;
              if (k > 0) await this.clock.sleep(timing.betweenKeysDelayMs);
              await send(key, 'press', mode === 'type' ? timing.pressDelayMs : timing.chordPressDelayMs);
              if (mode === 'type') await send(key, 'release', timing.releaseDelayMs);
            }
            await this.clock.sleep(timing.afterTextDelayMs);
          } else {
            for (let c = 0; c < step.chords.length; c++) {
              const chord = step.chords[c]!;
              if (c > 0) await this.clock.sleep(timing.betweenKeysDelayMs);
              for (let k = 0; k < chord.length; k++) {
                await send(chord[k]!, 'press', k < chord.length - 1 ? timing.chordPressDelayMs : timing.pressDelayMs);
              }
              if (mode === 'type') {
                for (let k = chord.length - 1; k >= 0; k--) {
                  await send(chord[k]!, 'release', k > 0 ? timing.chordReleaseDelayMs : timing.releaseDelayMs);
                }
              }
            }
          }
        }
      }
      await this.clock.sleep(timing.afterSequenceDelayMs);
    } catch (error) {
      // Never leave keys stuck down: release what this call pressed, newest first, then report the failure.
      if (mode === 'type') {
        for (const key of [...held].reverse()) {
          try {
            await this.device.send(key, 'release');
          } catch {
            // The original error is the one worth reporting.
          }
        }
      }
      throw error;
    } finally {
      await this.device.endInput?.();
    }
  }

  private async releaseAll(
    steps: ResolvedStep[],
    timing: KeyboardProfile,
    send: (key: KeyCode, state: KeyState, delayMs: number) => Promise<void>,
  ): Promise<void> {
    const keys: KeyCode[] = [];
    for (const step of steps) {
      if (step.kind === 'text') keys.push(...step.keys);
      else for (const chord of step.chords) keys.push(...chord);
    }
    for (let k = keys.length - 1; k >= 0; k--) {
      await send(keys[k]!, 'release', k > 0 ? timing.chordReleaseDelayMs : timing.releaseDelayMs);
    }
  }
}
