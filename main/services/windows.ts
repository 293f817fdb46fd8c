import { AttributeNames } from '../../shared/model/attributes.js';
import { InspectorError } from '../../shared/model/errors.js';
import type { WindowId, WindowInfo, WindowManager } from '../core/platform.js';
import type { RuntimeNode } from '../runtime/node.js';
import { boundsOf } from './bounds.js';

/** How long `window --bring-to-front` waits for the window to come to the front, unless `--wait-ms` says. */
export const DEFAULT_BRING_TO_FRONT_WAIT_MS = 1500;

const POLL_MS = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The process id of an element: its own ProcessId attribute or the nearest ancestor's. */
export async function processIdOf(node: RuntimeNode): Promise<number | undefined> {
  for (let current: RuntimeNode | undefined = node; current; current = current.parent) {
    const entry = await current.attribute('control', AttributeNames.ProcessId).catch(() => undefined);
    if (entry && (entry.value.type === 'Integer' || entry.value.type === 'Number')) return entry.value.value;
  }
  return undefined;
}

/** The element's top-level element in the tree: itself or its ancestor right below the application or desktop. */
export function topLevelOf(node: RuntimeNode): RuntimeNode {
  let current = node;
  while (current.parent?.parent && current.parent.namespace !== 'app') current = current.parent;
  return current;
}

/**
 * The top-level window an element lives in, from its process id and its top-level element's name and bounds
 * (PlatynUI §8, X11): two windows of one application at one place are told apart by their names.
 */
export async function windowOf(wm: WindowManager, node: RuntimeNode): Promise<WindowId> {
  const processId = await processIdOf(node);
  const topLevel = topLevelOf(node);
  const bounds = await boundsOf(topLevel);
  const id = await wm.resolveWindow({
    ...(processId !== undefined ? { processId } : {}),
    name: topLevel.name,
    ...(bounds ? { bounds } : {}),
  });
  if (id === undefined) throw new InspectorError('action-failed', `no top-level window found for ${node.describe()}`);
  return id;
}

/**
 * Activates the window of an element before input goes to it (PlatynUI's pointer actions do so unless
 * `--no-activate`). Best effort: an element without a window of its own, or a window manager that declines, leaves
 * the input to go where the pointer is.
 */
export async function activateWindowOf(wm: WindowManager | undefined, node: RuntimeNode): Promise<void> {
  if (!wm) return;
  const id = await windowOf(wm, node).catch(() => undefined);
  if (id === undefined || (await wm.isActive(id).catch(() => true))) return;
  await wm.activate(id).catch(() => undefined);
}

/**
 * Brings a window to the front: asks the window manager to activate it (which shows a minimized window and raises
 * it), then waits up to `waitMs` until it is the active window. A window that is not there by then is an error
 * naming it and the window that is active instead.
 */
export async function bringToFront(wm: WindowManager, id: WindowId, waitMs: number): Promise<WindowInfo> {
  const deadline = Date.now() + waitMs;
  await wm.activate(id, { waitMs });
  for (;;) {
    const windows = await wm.list();
    const window = windows.find((candidate) => candidate.id === id);
    if (!window) throw new InspectorError('stale-node', `window 0x${id.toString(16)} does not exist (any more)`);
    if (window.isActive) return window;
    if (Date.now() >= deadline) {
      const active = windows.find((candidate) => candidate.isActive);
      throw new InspectorError(
        'action-failed',
        `window 0x${id.toString(16)} "${window.name}" did not come to the front within ${waitMs} ms` +
          (active ? ` (the active window is 0x${active.id.toString(16)} "${active.name}")` : ''),
      );
    }
    await sleep(POLL_MS);
  }
}
