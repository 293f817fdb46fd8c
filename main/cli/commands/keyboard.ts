import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import { KeyboardController, type KeyboardOverrides } from '../../runtime/input/keyboard.js';
import { addRuntimeOptions, parseMilliseconds } from '../options.js';
import type { RuntimeCliOptions } from '../command-runtime.js';
import { device, interruptibleInput, openDevices } from './device-support.js';

const actions = ['type', 'press', 'release', 'list'] as const;
type KeyboardAction = (typeof actions)[number];

interface KeyboardOptions extends RuntimeCliOptions {
  delayMs?: number;
  betweenKeysDelay?: number;
}

/** The profile's delays the options set: `--delay-ms` every one of them, `--between-keys-delay` that one after it. */
export function keyboardOverrides(options: KeyboardOptions): KeyboardOverrides {
  const uniform = options.delayMs;
  return {
    ...(uniform !== undefined
      ? {
          pressDelayMs: uniform,
          releaseDelayMs: uniform,
          betweenKeysDelayMs: uniform,
          chordPressDelayMs: uniform,
          chordReleaseDelayMs: uniform,
          afterSequenceDelayMs: uniform,
          afterTextDelayMs: uniform,
        }
      : {}),
    ...(options.betweenKeysDelay !== undefined ? { betweenKeysDelayMs: options.betweenKeysDelay } : {}),
  };
}

export function registerKeyboard(program: Command): void {
  addRuntimeOptions(
    program
      .command('keyboard')
      .description('type a keyboard sequence (text<Ctrl+a><Ctrl+K Ctrl+C>), press or release it, or list key names')
      .argument('<action>', 'type, press, release or list')
      .argument('[sequence]', 'literal text and <Shortcut> notation; \\< \\> \\\\ \\xNN \\uNNNN escapes')
      .option(
        '--delay-ms <ms>',
        'wait this long at every step (press, release, between keys, after text)',
        parseMilliseconds('--delay-ms', 0),
      )
      .option(
        '--between-keys-delay <ms>',
        'wait this long between two keys or chords',
        parseMilliseconds('--between-keys-delay', 0),
      ),
  ).action(async (action: string, sequence: string | undefined, options: KeyboardOptions) => {
    if (!actions.includes(action as KeyboardAction)) {
      throw new InspectorError('usage', `keyboard action must be one of ${actions.join(', ')}, got "${action}"`);
    }
    if (action !== 'list' && sequence === undefined)
      throw new InspectorError('usage', `keyboard ${action} needs a <sequence>`);
    const devices = await openDevices(options, false);
    try {
      const keyboard = device(devices.platform, 'keyboard');
      if (action === 'list') {
        for (const name of keyboard.knownKeyNames()) process.stdout.write(`${name}\n`);
        return;
      }
      // Interrupted typing releases what it pressed (the controller's own cleanup); press holds keys on purpose.
      await interruptibleInput(async (clock) => {
        const controller = new KeyboardController(keyboard, undefined, clock);
        const overrides = keyboardOverrides(options);
        if (action === 'type') await controller.type(sequence!, overrides);
        else if (action === 'press') await controller.press(sequence!, overrides);
        else await controller.release(sequence!, overrides);
      });
    } finally {
      await devices.close();
    }
  });
}
