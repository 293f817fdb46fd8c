import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import type { Point } from '../../../shared/model/values.js';
import { PointerController } from '../../runtime/input/pointer.js';
import { motionModes, type MotionMode, type PointerOverrides } from '../../runtime/input/pointer-motion.js';
import type { PointerButton } from '../../core/platform.js';
import { activateWindowOf } from '../../services/windows.js';
import { addRuntimeOptions } from '../options.js';
import type { RuntimeCliOptions } from '../command-runtime.js';
import {
  device,
  formatPoint,
  interruptibleInput,
  nodesFor,
  openDevices,
  parsePoint,
  pointOf,
} from './device-support.js';

const actions = [
  'move',
  'click',
  'double-click',
  'multi-click',
  'press',
  'release',
  'scroll',
  'drag',
  'position',
] as const;
type PointerAction = (typeof actions)[number];

interface PointerOptions extends RuntimeCliOptions {
  at?: Point;
  to?: Point;
  button: PointerButton;
  delta: Point;
  motion?: MotionMode;
  count?: number;
  /** False with --no-activate. */
  activate: boolean;
  format: 'text' | 'json';
}

/** The most clicks one `multi-click` sends. */
export const MAX_CLICK_COUNT = 100;

export function parseClickCount(value: string): number {
  const count = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(count >= 2 && count <= MAX_CLICK_COUNT)) {
    throw new InspectorError('usage', `--count must be a whole number from 2 to ${MAX_CLICK_COUNT}, got "${value}"`);
  }
  return count;
}

function parseButton(value: string): PointerButton {
  if (value !== 'left' && value !== 'middle' && value !== 'right') {
    throw new InspectorError('usage', `--button must be left, middle or right, got "${value}"`);
  }
  return value;
}

function parseMotion(value: string): MotionMode {
  if (!motionModes.includes(value as MotionMode)) {
    throw new InspectorError('usage', `--motion must be one of ${motionModes.join(', ')}, got "${value}"`);
  }
  return value as MotionMode;
}

export function registerPointer(program: Command): void {
  addRuntimeOptions(
    program
      .command('pointer')
      .description(
        'move, click, press, release, scroll or drag the pointer at an element or a point; or print where it is',
      )
      .argument('<action>', actions.join(', '))
      .argument('[xpath]', 'element to act on (its ActivationPoint or the centre of its Bounds)')
      .option('--at <x,y>', 'desktop point to act on instead of an element', parsePoint)
      .option('--to <x,y>', 'drag: where to release', parsePoint)
      .option('--button <button>', 'left, middle or right', parseButton, 'left')
      .option('--delta <dx,dy>', 'scroll: wheel steps (positive: right, down)', parsePoint, { x: 0, y: 3 })
      .option('--motion <mode>', `path of the move: ${motionModes.join(', ')}`, parseMotion)
      .option('--count <n>', `multi-click: how many clicks, 2 to ${MAX_CLICK_COUNT} (default 2)`, parseClickCount)
      .option('--no-activate', "leave the element's window as it is (by default it is activated first)")
      .option('--format <format>', 'position: text or json', 'text'),
  ).action(async (action: string, xpath: string | undefined, options: PointerOptions) => {
    if (!actions.includes(action as PointerAction)) {
      throw new InspectorError('usage', `pointer action must be one of ${actions.join(', ')}, got "${action}"`);
    }
    if (xpath && options.at) throw new InspectorError('usage', 'give either an <xpath> or --at, not both');
    const needsTarget = action !== 'position' && action !== 'release' && action !== 'scroll';
    if (needsTarget && !xpath && !options.at)
      throw new InspectorError('usage', `pointer ${action} needs an <xpath> or --at x,y`);
    if (action === 'drag' && !options.to) throw new InspectorError('usage', 'pointer drag needs --to x,y');
    if (options.count !== undefined && action !== 'multi-click') {
      throw new InspectorError('usage', `--count goes with pointer multi-click, not pointer ${action}`);
    }
    const devices = await openDevices(options, Boolean(xpath));
    try {
      const pointerDevice = device(devices.platform, 'pointer');
      const node = xpath ? (await nodesFor(devices.tree!, xpath))[0]! : undefined;
      if (node && options.activate && action !== 'position')
        await activateWindowOf(devices.platform.windowManager, node);
      const target = node ? await pointOf(node) : options.at;
      const overrides: PointerOverrides = options.motion ? { motion: options.motion } : {};
      if (action === 'position') {
        const position = await pointerDevice.position();
        process.stdout.write(
          options.format === 'json' ? `${JSON.stringify(position)}\n` : `${formatPoint(position)}\n`,
        );
        return;
      }
      await interruptibleInput(async (clock) => {
        const pointer = new PointerController(pointerDevice, { clock });
        try {
          switch (action as Exclude<PointerAction, 'position'>) {
            case 'move':
              await pointer.moveTo(target!, overrides);
              break;
            case 'click':
              await pointer.click(target, options.button, overrides);
              break;
            case 'double-click':
              await pointer.multiClick(target, options.button, 2, overrides);
              break;
            case 'multi-click':
              await pointer.multiClick(target, options.button, options.count ?? 2, overrides);
              break;
            case 'press':
              await pointer.press(target, options.button, overrides);
              break;
            case 'release':
              if (target) await pointer.moveTo(target, overrides);
              await pointer.release(options.button, overrides);
              break;
            case 'scroll':
              await pointer.scroll(options.delta, target, overrides);
              break;
            case 'drag':
              await pointer.drag(target!, options.to!, options.button, overrides);
              break;
          }
        } catch (error) {
          // An interrupted click or drag lets go of its button; `press` holds it on purpose.
          if (action !== 'press') await pointer.releaseAll();
          throw error;
        }
      });
      process.stdout.write(`${action}${target ? ` ${formatPoint(target)}` : ''}\n`);
    } finally {
      await devices.close();
    }
  });
}
