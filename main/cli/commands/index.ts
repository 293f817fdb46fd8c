import type { Command } from 'commander';
import { registerServe } from '../../hosts/browser/command.js';
import { registerLocate } from './locate.js';

/**
 * Commands contributed by other parts (platform devices, locators, the browser host) register here, one line each,
 * so that index.ts stays the single list of the CLI's contract.
 */
export function registerExtraCommands(program: Command): void {
  registerLocate(program);
  registerServe(program);
}
