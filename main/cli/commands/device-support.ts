import { InspectorError } from '../../../shared/model/errors.js';
import type { Point, Rect } from '../../../shared/model/values.js';
import type { RuntimeNode } from '../../runtime/node.js';
import type { PlatformBundle } from '../../core/platform.js';
import { abortableClock, type InputClock } from '../../runtime/input/timing.js';
import { runtimeOptionsFrom } from '../../backends/flags.js';
import { chooseBackends, selectPlatformFactory } from '../../core/registry.js';
import { parseMilliseconds } from '../options.js';
import {
  openCommandRuntime,
  type CommandRuntime,
  type OpenOptions,
  type RuntimeCliOptions,
} from '../command-runtime.js';

/** Helpers of the platform-device commands (highlight, screenshot, pointer, keyboard, window, focus, pick). */

export interface CommandDevices {
  platform: PlatformBundle;
  /** Present when the command named elements by XPath (the tree was opened). */
  tree: CommandRuntime | undefined;
  close(): Promise<void>;
}

/**
 * The platform alone (fast: no providers, no XPath worker), or the whole runtime when elements are named (`open`:
 * how, see OpenOptions).
 */
export async function openDevices(
  options: RuntimeCliOptions,
  needTree: boolean,
  open: OpenOptions = {},
): Promise<CommandDevices> {
  if (needTree) {
    const tree = await openCommandRuntime(options, open);
    const platform = tree.runtime.platform;
    if (!platform) {
      await tree.close();
      throw new InspectorError('provider-unavailable', 'no platform backend serves this session (is DISPLAY set?)');
    }
    return { platform, tree, close: () => tree.close() };
  }
  const runtimeOptions = runtimeOptionsFrom(options);
  const backend = chooseBackends(runtimeOptions).platform;
  const config = {
    env: process.env,
    backendOptions: runtimeOptions.backendOptions ?? {},
    ...(backend && backend !== 'none' ? { backend } : {}),
  };
  const factory = backend === 'none' ? undefined : selectPlatformFactory(config);
  if (!factory) {
    throw new InspectorError('provider-unavailable', 'no platform backend serves this session (is DISPLAY set?)');
  }
  const platform = await factory.create(config);
  return { platform, tree: undefined, close: () => platform.shutdown() };
}

type DeviceName = 'pointer' | 'keyboard' | 'screenshot' | 'highlight' | 'windowManager' | 'desktopInfo';

/** A device of the bundle, or an error that says why the platform cannot offer it. */
export function device<K extends DeviceName>(platform: PlatformBundle, name: K): NonNullable<PlatformBundle[K]> {
  const found = platform[name];
  if (found) return found as NonNullable<PlatformBundle[K]>;
  const reason = platform.unavailable.find((entry) => entry.device === name)?.reason;
  throw new InspectorError('unsupported', `the ${platform.id} platform has no ${name}${reason ? `: ${reason}` : ''}`);
}

function numbers(value: string, count: number, what: string, example: string): number[] {
  const parts = value.split(',').map((part) => part.trim());
  const parsed = parts.map(Number);
  if (parts.length !== count || parsed.some((n) => !Number.isFinite(n) || parts.some((p) => p === ''))) {
    throw new InspectorError('usage', `${what} must be ${example}, got "${value}"`);
  }
  return parsed;
}

export function parsePoint(value: string): Point {
  const [x, y] = numbers(value, 2, 'a point', 'x,y (e.g. 100,200)');
  return { x: x!, y: y! };
}

export function parseRect(value: string): Rect {
  const [x, y, width, height] = numbers(value, 4, 'a rectangle', 'x,y,width,height (e.g. 10,20,300,40)');
  if (width! <= 0 || height! <= 0)
    throw new InspectorError('usage', `a rectangle needs a positive size, got "${value}"`);
  return { x: x!, y: y!, width: width!, height: height! };
}

export function collectRects(value: string, previous: Rect[] | undefined): Rect[] {
  return [...(previous ?? []), parseRect(value)];
}

export const parseDuration = parseMilliseconds('--duration', 0);

/** The elements an XPath selects (nodes only); none is an error naming the expression. */
export async function nodesFor(tree: CommandRuntime, xpath: string): Promise<RuntimeNode[]> {
  const { items } = await tree.xpath.evaluate(xpath);
  const nodes = items.flatMap((item) => (item.type === 'node' ? [item.node] : []));
  if (nodes.length === 0) throw new InspectorError('action-failed', `no element matches ${xpath}`);
  return nodes;
}

/** Where a pointer action on an element lands: its ActivationPoint, else the centre of its Bounds. */
export { actionPointOf as pointOf } from '../../services/bounds.js';
export { processIdOf } from '../../services/windows.js';

export const formatRect = (r: Rect) => `${r.x},${r.y},${r.width},${r.height}`;
export const formatPoint = (p: Point) => `${Math.round(p.x * 100) / 100},${Math.round(p.y * 100) / 100}`;

/**
 * Holds the process until the duration has passed or it is asked to stop (Ctrl-C, SIGTERM: `highlight --clear`);
 * ends early with the platform's error when the platform loses its desktop (the X server stopped). A timer keeps the
 * event loop alive meanwhile: signal listeners alone do not, and the process would end at once.
 */
export async function holdUntil(platform: PlatformBundle, durationMs: number | undefined): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let done: (() => void) | undefined;
  const stopped = new Promise<undefined>((resolve) => {
    done = () => resolve(undefined);
    timer = durationMs !== undefined ? setTimeout(done, durationMs) : setInterval(() => {}, 1 << 30);
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  try {
    const lost = await Promise.race([stopped, ...(platform.whenLost ? [platform.whenLost()] : [])]);
    if (lost) throw lost;
  } finally {
    clearTimeout(timer);
    clearInterval(timer);
    process.off('SIGINT', done!);
    process.off('SIGTERM', done!);
  }
}

/**
 * Runs input (typing, clicking, dragging) so that Ctrl-C or SIGTERM does not end the process in the middle with keys
 * or buttons held down on the desktop: the signal aborts the input clock, the controller stops at its next pause and
 * releases what it holds, and the command fails with 'cancelled' (exit 4). A second signal ends the process as usual.
 */
export async function interruptibleInput<T>(body: (clock: InputClock) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    controller.abort(
      new InspectorError('cancelled', `interrupted by ${signal}; the keys and buttons the input held were released`),
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await body(abortableClock(controller.signal));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
