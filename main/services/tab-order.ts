import { bounds } from '../../shared/checks/facts.js';
import { attachFact, walkCheckTree, type CheckNode } from '../../shared/checks/model.js';
import { isTabStop, TAB_ORDER_FACT, TAB_WALK_END_TEXT, type TabWalkEnd } from '../../shared/checks/rules/tab-order.js';
import { InspectorError } from '../../shared/model/errors.js';
import type { UiEventRecord } from '../../shared/model/ui-events.js';
import { uiBool, uiNumber, uiString, type Rect } from '../../shared/model/values.js';
import type { HighlightLabel, HighlightRequest, KeyboardDevice, WindowManager } from '../core/platform.js';
import { KeyboardController } from '../runtime/input/keyboard.js';
import type { Runtime } from '../runtime/runtime.js';
import type { XPathService } from '../xpath/xpath-service.js';
import { boundsOf } from './bounds.js';
import { UiEventWatch } from './ui-events.js';
import { bringToFront, DEFAULT_BRING_TO_FRONT_WAIT_MS, windowOf } from './windows.js';

/**
 * The keyboard tab-order walk (`check --tab-order`, the Checks panel's "Tab order"): for each window holding tab
 * stops of the checked subtrees, the window is brought to the front, its first tab stop is focused through the
 * accessibility API, and Tab is pressed with the platform keyboard while the focus events of the runtime's event
 * stream tell where the focus went, until it returns to where the walk began or a bound is reached (the number of
 * tab stops plus a margin, a time limit). What it learns goes onto the check nodes as facts for the rules
 * `tab-unreachable` and `tab-trap` (shared/checks/rules/tab-order.ts).
 */

/** Tab presses beyond the number of tab stops (toolkits add stops of their own: a browser's address bar ...). */
export const TAB_STEP_MARGIN = 20;
/** The whole walk, over every window, by default. */
export const DEFAULT_TAB_TIME_LIMIT_MS = 30_000;
/** Windows walked at most in one run. */
export const MAX_TAB_WINDOWS = 20;
/** How long one press of Tab may take to move the focus before it counts as not moving it. */
const STEP_TIMEOUT_MS = 700;
/** After the first focus event of a press, further ones this soon belong to it (a container, then its child). */
const SETTLE_MS = 60;

export interface TabStopEntry {
  readonly runtimeId: string;
  readonly role: string | null;
  readonly name: string | null;
  readonly bounds?: Rect;
}

export interface TabOrderWindow {
  readonly window: { readonly runtimeId: string; readonly role: string; readonly name: string };
  /** Where Tab took the focus, in order; the first entry is where the walk began. */
  readonly order: readonly TabStopEntry[];
  readonly end: TabWalkEnd;
  readonly presses: number;
}

export interface TabOrderOptions {
  readonly timeLimitMs?: number;
  /** Told after each step (numbered markers while walking). */
  readonly onStep?: (window: TabOrderWindow['window'], order: readonly TabStopEntry[]) => void | Promise<void>;
  readonly warn?: (message: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Focus events as they come, waited for one press at a time. */
class FocusFollower {
  private events: UiEventRecord[] = [];
  private wake: (() => void) | undefined;

  receive(record: UiEventRecord): void {
    this.events.push(record);
    this.wake?.();
  }

  clear(): void {
    this.events = [];
  }

  /** The last focus event of the next move (one that leaves `current`), or undefined if none came in time. */
  async nextMove(current: string | undefined, timeoutMs: number): Promise<UiEventRecord | undefined> {
    const deadline = Date.now() + timeoutMs;
    const moved = () => this.events.some((event) => event.runtimeId !== current);
    while (!moved() && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    if (!moved()) return undefined;
    await sleep(SETTLE_MS);
    const last = this.events.filter((event) => event.runtimeId !== current).at(-1);
    this.clear();
    return last;
  }
}

const isAbove = (node: CheckNode) => node.namespace === 'app' || (node.role === 'Desktop' && !node.parent);

/** The top-level window a node lives in: the top of its tree below the desktop or its application. */
function topLevelOf(node: CheckNode): CheckNode | undefined {
  let current: CheckNode = node;
  while (current.parent && !isAbove(current.parent)) current = current.parent;
  return isAbove(current) ? undefined : current;
}

/** Tab stops of the checked trees, grouped by their top-level window in document order. */
function stopsByWindow(roots: readonly CheckNode[]): Map<CheckNode, CheckNode[]> {
  const groups = new Map<CheckNode, CheckNode[]>();
  for (const node of walkCheckTree(roots)) {
    if (!isTabStop(node)) continue;
    const top = topLevelOf(node);
    if (!top) continue;
    const group = groups.get(top) ?? [];
    group.push(node);
    groups.set(top, group);
  }
  return groups;
}

interface WalkContext {
  readonly runtime: Runtime;
  readonly keyboard: KeyboardController;
  readonly wm: WindowManager;
  readonly follower: FocusFollower;
  readonly deadline: number;
  readonly options: TabOrderOptions;
  /** Check nodes by runtime id. */
  readonly known: ReadonlyMap<string, CheckNode>;
}

async function entryOf(context: WalkContext, record: { runtimeId: string; role: string | null; name: string | null }) {
  const node = context.known.get(record.runtimeId);
  const box =
    (node && bounds(node)) ??
    (await (async () => {
      const live = context.runtime.node(record.runtimeId);
      return live ? boundsOf(live) : undefined;
    })());
  const entry: TabStopEntry = {
    runtimeId: record.runtimeId,
    role: node ? node.role : record.role,
    name: node ? node.name : record.name,
    ...(box ? { bounds: box } : {}),
  };
  return entry;
}

/** Focuses the first tab stop through the accessibility API; where it cannot, the first press of Tab begins. */
async function begin(context: WalkContext, first: CheckNode): Promise<UiEventRecord | undefined> {
  const node = context.runtime.node(first.key);
  const focused = node
    ? await node.performAction({ action: 'focus' }).then(
        () => true,
        () => false,
      )
    : false;
  if (focused) {
    await context.follower.nextMove(undefined, STEP_TIMEOUT_MS);
    return { time: '', type: 'focus', runtimeId: first.key, role: first.role, name: first.name, detail: {} };
  }
  await context.keyboard.type('<Tab>');
  return context.follower.nextMove(undefined, STEP_TIMEOUT_MS);
}

async function walkWindow(context: WalkContext, top: CheckNode, stops: readonly CheckNode[]): Promise<TabOrderWindow> {
  const window = { runtimeId: top.key, role: top.role, name: top.name };
  const live = context.runtime.node(top.key);
  if (!live) throw new InspectorError('stale-node', `the window ${top.role} "${top.name}" went away before the walk`);
  await bringToFront(context.wm, await windowOf(context.wm, live), DEFAULT_BRING_TO_FRONT_WAIT_MS);
  context.follower.clear();
  const order: TabStopEntry[] = [];
  const started = await begin(context, stops[0]!);
  if (!started) return { window, order, end: 'no-focus', presses: 0 };
  order.push(await entryOf(context, started));
  await context.options.onStep?.(window, order);
  const maxPresses = stops.length + TAB_STEP_MARGIN;
  let presses = 0;
  let current = started.runtimeId;
  const finish = (end: TabWalkEnd): TabOrderWindow => ({ window, order, end, presses });
  while (presses < maxPresses) {
    if (Date.now() >= context.deadline) return finish('time-limit');
    await context.keyboard.type('<Tab>');
    presses++;
    let moved = await context.follower.nextMove(current, STEP_TIMEOUT_MS);
    if (!moved) {
      // Once more: a slow application gets a second chance before the element counts as a trap.
      await context.keyboard.type('<Tab>');
      presses++;
      moved = await context.follower.nextMove(current, STEP_TIMEOUT_MS);
    }
    if (!moved) {
      markTrap(context, [order.at(-1)!], `Tab leaves the focus on it (pressed twice, the focus did not move)`);
      return finish('trap');
    }
    if (moved.runtimeId === order[0]!.runtimeId) return finish('returned');
    const seen = order.findIndex((entry) => entry.runtimeId === moved.runtimeId);
    if (seen >= 0) {
      const cycle = order.slice(seen);
      const path = [...cycle, cycle[0]!].map(describeEntry).join(' → ');
      markTrap(context, cycle, `Tab cycles through ${cycle.length} element(s) and never leaves them: ${path}`);
      return finish('trap');
    }
    order.push(await entryOf(context, moved));
    current = moved.runtimeId;
    await context.options.onStep?.(window, order);
  }
  return finish('step-limit');
}

function describeEntry(entry: TabStopEntry): string {
  return entry.name ? `${entry.role ?? '?'} "${entry.name}"` : (entry.role ?? entry.runtimeId);
}

/** The trap goes onto the first element of it the check knows (a trap outside the checked subtree is not its). */
function markTrap(context: WalkContext, elements: readonly TabStopEntry[], message: string): void {
  const node = elements.map((entry) => context.known.get(entry.runtimeId)).find((found) => found !== undefined);
  if (node) attachFact(node, TAB_ORDER_FACT, { type: 'Object', value: { trap: uiString(message) } });
}

function devicesOf(runtime: Runtime): { keyboard: KeyboardDevice; wm: WindowManager } {
  const keyboard = runtime.platform?.keyboard;
  const wm = runtime.platform?.windowManager;
  if (!keyboard || !wm) {
    throw new InspectorError(
      'unsupported',
      `the tab-order walk needs the platform's keyboard and window manager; ${runtime.platform?.id ?? 'no'} platform offers ${[keyboard && 'a keyboard', wm && 'a window manager'].filter(Boolean).join(' and ') || 'neither'}`,
    );
  }
  return { keyboard, wm };
}

/**
 * Walks the tab order of every window holding tab stops of the checked trees (at most MAX_TAB_WINDOWS), and attaches
 * to the check nodes where each stop was reached, which were never reached and where focus got trapped.
 */
export async function walkTabOrder(
  runtime: Runtime,
  xpath: XPathService,
  roots: readonly CheckNode[],
  options: TabOrderOptions = {},
): Promise<TabOrderWindow[]> {
  const { keyboard, wm } = devicesOf(runtime);
  const groups = [...stopsByWindow(roots)].slice(0, MAX_TAB_WINDOWS);
  if (groups.length === 0) return [];
  const known = new Map<string, CheckNode>();
  for (const node of walkCheckTree(roots)) known.set(node.key, node);
  const follower = new FocusFollower();
  const watch = await UiEventWatch.start(runtime, xpath, { types: ['focus'], bufferLimit: 1000 }, (record) =>
    follower.receive(record),
  );
  const context: WalkContext = {
    runtime,
    keyboard: new KeyboardController(keyboard),
    wm,
    follower,
    deadline: Date.now() + (options.timeLimitMs ?? DEFAULT_TAB_TIME_LIMIT_MS),
    options,
    known,
  };
  const walks: TabOrderWindow[] = [];
  try {
    for (const [top, stops] of groups) {
      let walk: TabOrderWindow;
      try {
        walk = await walkWindow(context, top, stops);
      } catch (error) {
        if (!(error instanceof InspectorError) || error.code === 'internal' || error.code === 'unsupported')
          throw error;
        options.warn?.(`tab order of ${top.role} "${top.name}" not walked: ${error.message}`);
        continue;
      }
      walks.push(walk);
      const reached = new Set(walk.order.map((entry) => entry.runtimeId));
      walk.order.forEach((entry, index) => {
        const node = known.get(entry.runtimeId);
        if (node && !node.attributes.has(TAB_ORDER_FACT)) {
          attachFact(node, TAB_ORDER_FACT, { type: 'Object', value: { position: uiNumber(index + 1) } });
        }
      });
      if (walk.end === 'no-focus') continue;
      for (const stop of stops) {
        if (reached.has(stop.key)) continue;
        attachFact(stop, TAB_ORDER_FACT, {
          type: 'Object',
          value: { unreached: uiBool(true), steps: uiNumber(walk.presses) },
        });
      }
    }
  } finally {
    watch.close();
  }
  return walks;
}

/** Room above a frame for its number (the X11 highlight draws digits 18 pixels high). */
const MARKER_LABEL_OFFSET = 24;

/** The numbered markers of a tab order: a frame per stop with bounds, its position beside it. */
export function tabMarkers(order: readonly TabStopEntry[]): HighlightRequest {
  const rects: Rect[] = [];
  const labels: HighlightLabel[] = [];
  order.forEach((entry, index) => {
    if (!entry.bounds || entry.bounds.width <= 0 || entry.bounds.height <= 0) return;
    const box = entry.bounds;
    rects.push(box);
    const above = box.y - MARKER_LABEL_OFFSET;
    labels.push({ text: String(index + 1), at: { x: box.x, y: above >= 0 ? above : box.y + 4 } });
  });
  return { rects, labels };
}

/** The walks as lines for people: each window's order numbered, and how the walk ended. */
export function formatTabOrder(walks: readonly TabOrderWindow[]): string {
  const lines: string[] = [];
  for (const walk of walks) {
    const window = walk.window.name ? `${walk.window.role} "${walk.window.name}"` : walk.window.role;
    lines.push(
      `tab order of ${window}: ${walk.order.length} stop(s), ${walk.presses} press(es) of Tab; ${TAB_WALK_END_TEXT[walk.end]}`,
    );
    walk.order.forEach((entry, index) => lines.push(`  ${String(index + 1).padStart(3)}. ${describeEntry(entry)}`));
  }
  return lines.length > 0 ? lines.join('\n') + '\n' : '';
}
