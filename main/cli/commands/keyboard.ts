import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import { KeyboardController } from '../../runtime/input/keyboard.js';
import { addRuntimeOptions } from '../options.js';
import type { RuntimeCliOptions } from '../command-runtime.js';
import { device, interruptibleInput, openDevices } from './device-support.js';

const actions = ['type', 'press', 'release', 'list'] as const;
type KeyboardAction = (typeof actions)[number];

export function registerKeyboard(program: Command): void {
  addRuntimeOptions(
    program
      .command('keyboard')
      .description('type a keyboard sequence (text<Ctrl+a><Ctrl+K Ctrl+C>), press or release it, or list key names')
      .argument('<action>', 'type, press, release or list')
      .argument('[sequence]', 'literal text and <Shortcut> notation; \\< \\> \\\\ \\xNN \\uNNNN escapes'),
  ).action(async (action: string, sequence: string | undefined, options: RuntimeCliOptions) => {
    if (!actions.includes(action as KeyboardAction)) {
      throw new InspectorError('usage', `keyboard action must be one of ${actions.join(', ')}, got "${action}"`);
    }
    if (action !== 'list' && sequence === undefined)
      throw new InspectorError('usage', `keyboard ${action} needs a <sequence>`);
    const session = await openDevices(options, false);
    try {
      const keyboard = device(session.platform, 'keyboard');
      if (action === 'list') {
        for (const name of keyboard.knownKeyNames()) process.stdout.write(`${name}\n`);
        return;
      }
      // Interrupted typing releases what it pressed (the controller's own cleanup); press holds keys on purpose.
      await interruptibleInput(async (clock) => {
        const controller = new KeyboardController(keyboard, undefined, clock);
        if (action === 'type') await controller.type(sequence!);
        else if (action === 'press') await controller.press(sequence!);
        else await controller.release(sequence!);
      });
    } finally {
      await session.close();
    }
  });
}
