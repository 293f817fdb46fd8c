import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import type { WindowInfo } from '../../core/platform.js';
import { activateWindowOf, bringToFront, DEFAULT_BRING_TO_FRONT_WAIT_MS, windowOf } from '../../services/windows.js';
import { addRuntimeOptions, parseMilliseconds } from '../options.js';
import type { RuntimeCliOptions } from '../command-runtime.js';
import { device, formatRect, nodesFor, openDevices } from './device-support.js';

interface WindowOptions extends RuntimeCliOptions {
  list?: boolean;
  activate?: boolean;
  bringToFront?: boolean;
  waitMs?: number;
  minimize?: boolean;
  maximize?: boolean;
  restore?: boolean;
  close?: boolean;
  move?: [string, string];
  resize?: [string, string];
  format: 'text' | 'json';
}

function windowLine(window: WindowInfo): string {
  const pid = window.processId !== undefined ? ` pid=${window.processId}` : '';
  return `0x${window.id.toString(16)}${pid} "${window.name}" ${formatRect(window.bounds)}${window.isActive ? ' active' : ''}`;
}

function integer(value: string, what: string): number {
  if (!/^-?\d+$/.test(value)) throw new InspectorError('usage', `${what} must be an integer, got "${value}"`);
  return Number(value);
}

export function registerWindow(program: Command): void {
  addRuntimeOptions(
    program
      .command('window')
      .description('list or act on the top-level windows of elements (all windows with --list and no xpath)')
      .argument('[xpath]', 'elements whose windows to act on')
      .option('--list', 'print the windows (id, pid, name, bounds, active)')
      .option('--activate', 'bring the window to the front and focus it')
      .option(
        '--bring-to-front',
        'show (if minimized), raise and focus the window, and fail unless it is the active window within --wait-ms',
      )
      .option(
        '--wait-ms <ms>',
        `--bring-to-front: how long to wait for the window to come to the front (default ${DEFAULT_BRING_TO_FRONT_WAIT_MS})`,
        parseMilliseconds('--wait-ms', 0),
      )
      .option('--minimize', 'minimize the window')
      .option('--maximize', 'maximize the window')
      .option('--restore', 'restore a minimized or maximized window')
      .option('--close', 'ask the window to close')
      .option('--move <x y...>', 'move the window (client area) to x y')
      .option('--resize <w h...>', 'resize the window (client area) to w h')
      .option('--format <format>', 'text or json', 'text'),
  ).action(async (xpath: string | undefined, options: WindowOptions) => {
    const actions = {
      list: 'list',
      activate: 'activate',
      bringToFront: 'bring-to-front',
      minimize: 'minimize',
      maximize: 'maximize',
      restore: 'restore',
      close: 'close',
      move: 'move',
      resize: 'resize',
    } as const;
    const chosen = (Object.keys(actions) as Array<keyof typeof actions>)
      .filter((key) => options[key] !== undefined)
      .map((key) => actions[key]);
    if (chosen.length !== 1) {
      throw new InspectorError(
        'usage',
        `window needs exactly one of ${Object.values(actions)
          .map((name) => `--${name}`)
          .join(' ')}`,
      );
    }
    if (options.waitMs !== undefined && !options.bringToFront) {
      throw new InspectorError('usage', '--wait-ms goes with --bring-to-front');
    }
    if (!xpath && !options.list) throw new InspectorError('usage', `window --${chosen[0]} needs an <xpath>`);
    const pair = (values: string[] | undefined, what: string): [number, number] => {
      if (!values || values.length !== 2) throw new InspectorError('usage', `--${what} needs two numbers`);
      return [integer(values[0]!, what), integer(values[1]!, what)];
    };
    const devices = await openDevices(options, Boolean(xpath));
    try {
      const wm = device(devices.platform, 'windowManager');
      const all = await wm.list();
      let ids: number[];
      if (xpath) {
        ids = [];
        for (const node of await nodesFor(devices.tree!, xpath)) {
          const id = await windowOf(wm, node);
          if (!ids.includes(id)) ids.push(id);
        }
      } else ids = all.map((w) => w.id);
      if (options.list) {
        const windows = ids.map((id) => all.find((w) => w.id === id)).filter((w): w is WindowInfo => w !== undefined);
        if (options.format === 'json') process.stdout.write(`${JSON.stringify(windows, null, 2)}\n`);
        else for (const window of windows) process.stdout.write(`${windowLine(window)}\n`);
        return;
      }
      for (const id of ids) {
        if (options.activate) await wm.activate(id);
        else if (options.bringToFront) await bringToFront(wm, id, options.waitMs ?? DEFAULT_BRING_TO_FRONT_WAIT_MS);
        else if (options.minimize) await wm.minimize(id);
        else if (options.maximize) await wm.maximize(id);
        else if (options.restore) await wm.restore(id);
        else if (options.close) await wm.close(id);
        else if (options.move) await wm.move(id, ...pair(options.move as string[], 'move'));
        else if (options.resize) {
          const [w, h] = pair(options.resize as string[], 'resize');
          if (w <= 0 || h <= 0) throw new InspectorError('usage', '--resize needs a positive width and height');
          await wm.resize(id, w, h);
        }
        const after = options.close ? undefined : (await wm.list()).find((w) => w.id === id);
        process.stdout.write(after ? `${windowLine(after)}\n` : `0x${id.toString(16)} closed\n`);
      }
    } finally {
      await devices.close();
    }
  });
}

export function registerFocus(program: Command): void {
  registerNodeAction(program, 'focus', 'give an element the keyboard focus (its window is activated first)', 'focused');
}

export function registerSelect(program: Command): void {
  registerNodeAction(
    program,
    'select',
    'make an item the selected one of its list, tree or table (its window is activated first)',
    'selected',
  );
}

/** A command that performs one action on the element its XPath selects, in its activated window. */
function registerNodeAction(program: Command, action: 'focus' | 'select', description: string, done: string): void {
  addRuntimeOptions(
    program.command(action).description(description).argument('<xpath>', `the element to ${action}`),
  ).action(async (xpath: string, options: RuntimeCliOptions) => {
    const devices = await openDevices(options, true);
    try {
      const node = (await nodesFor(devices.tree!, xpath))[0]!;
      await activateWindowOf(devices.platform.windowManager, node);
      await node.performAction({ action });
      process.stdout.write(`${done} ${node.describe()}\n`);
    } finally {
      await devices.close();
    }
  });
}
