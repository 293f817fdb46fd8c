import type { Command } from 'commander';
import { registerServe } from '../../hosts/browser/command.js';
import { registerCheck } from './check.js';
import { registerHighlight } from './highlight.js';
import { registerKeyboard } from './keyboard.js';
import { registerLocate } from './locate.js';
import { registerPick } from './pick.js';
import { registerPointer } from './pointer.js';
import { registerScreenshot } from './screenshot.js';
import { registerFocus, registerWindow } from './window.js';

/**
 * Commands contributed by other parts (platform devices, locators, the browser host) register here, one line each,
 * so that index.ts stays the single list of the CLI's contract.
 */
export function registerExtraCommands(program: Command): void {
  registerLocate(program);
  registerHighlight(program);
  registerScreenshot(program);
  registerPointer(program);
  registerKeyboard(program);
  registerWindow(program);
  registerFocus(program);
  registerPick(program);
  registerServe(program);
  registerCheck(program);
}
