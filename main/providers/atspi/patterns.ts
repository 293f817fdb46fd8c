import { InspectorError } from '../../../shared/model/errors.js';
import type { Rect } from '../../../shared/model/values.js';
import type { ActionRequest } from '../../core/provider.js';
import type { WindowManager } from '../../core/platform.js';
import type { AttributeContext } from './attributes.js';
import { isReadOnly, isToggleable, readActions, readExtents } from './attributes.js';
import type { NodeData } from './node-data.js';
import { hasInterface } from './node-data.js';
import { isWindowRole } from './roles.js';
import { hasState, S } from './states.js';

/**
 * SupportedPatterns, honest per the catalog (shared/model/patterns.ts): a pattern is listed only when the node has
 * every attribute it requires and a way to perform its actions. Window patterns delegate to the runtime's window
 * manager and are not claimed without one.
 */

const WINDOW_PATTERNS = [
  'Activatable',
  'Minimizable',
  'Maximizable',
  'Restorable',
  'Closeable',
  'Movable',
  'Resizable',
  'Responsive',
] as const;

const ACTIVATE_ACTIONS = ['click', 'press', 'activate', 'jump', 'open', 'switch'];
const TOGGLE_ACTIONS = ['toggle', 'check', 'uncheck', 'click', 'press', 'activate'];
const EXPAND_ACTIONS = ['expand', 'open', 'toggle', 'click', 'activate', 'press'];
const COLLAPSE_ACTIONS = ['collapse', 'close', 'toggle', 'click', 'activate', 'press'];
const SELECT_ACTIONS = ['select', 'click', 'activate', 'press'];

export interface PatternContext extends AttributeContext {
  windowManager: WindowManager | undefined;
  /** The parent's data (a list item is selectable through its list's Selection). */
  parentData: NodeData | undefined;
  isApplication: boolean;
}

export function supportedPatterns(ctx: PatternContext): string[] {
  const { data } = ctx;
  const patterns: string[] = [];
  const component = hasInterface(data, 'Component');
  const action = hasInterface(data, 'Action');
  const states = data.states;
  if (ctx.isApplication) {
    if (data.app.processId !== undefined) patterns.push('Application');
    return patterns;
  }
  if (component) patterns.push('Element');
  const windowLike = isWindowRole(data.role) && ctx.windowManager !== undefined;
  if (hasInterface(data, 'Text') && hasInterface(data, 'EditableText') && !ctx.isSecure && !isReadOnly(data)) {
    patterns.push('TextEditable');
  }
  if (hasInterface(data, 'EditableText') && !isReadOnly(data)) patterns.push('Clearable');
  if (hasInterface(data, 'Text') && !ctx.isSecure) patterns.push('TextSelection');
  if (hasState(states, S.Selectable) && (action || (ctx.parentData && hasInterface(ctx.parentData, 'Selection')))) {
    patterns.push('Selectable');
  }
  if (hasInterface(data, 'Selection')) patterns.push('SelectionProvider');
  if (isToggleable(data) && action) patterns.push('Toggleable');
  if (hasInterface(data, 'Value') && !ctx.isSecure) patterns.push('StatefulValue');
  if (!windowLike && action) patterns.push('Activatable');
  if (component) patterns.push('ActivationTarget');
  if (component && hasState(states, S.Focusable)) patterns.push('Focusable');
  if (hasState(states, S.Expandable) && action) patterns.push('Expandable');
  if (component && !isWindowRole(data.role)) patterns.push('ScrollItem');
  if (windowLike) patterns.push(...WINDOW_PATTERNS);
  return patterns;
}

async function doNamedAction(ctx: AttributeContext, preferred: readonly string[], what: string): Promise<void> {
  const actions = await readActions(ctx);
  const names = actions.map((a) => a.name.toLowerCase());
  let index = -1;
  for (const name of preferred) {
    index = names.indexOf(name);
    if (index >= 0) break;
  }
  if (index < 0 && names.length > 0 && preferred === ACTIVATE_ACTIONS) index = 0;
  if (index < 0) {
    throw new InspectorError('unsupported', `${what}: the element offers no suitable action`, {
      runtimeId: ctx.data.key,
    });
  }
  const ok = await ctx.calls.doAction(ctx.data.ref, index);
  if (!ok) throw new InspectorError('action-failed', `${what}: the application refused the action`);
}

async function resolveWindow(ctx: PatternContext): Promise<number> {
  const wm = ctx.windowManager;
  if (!wm) throw new InspectorError('unsupported', 'no window manager is available for window actions');
  let bounds;
  try {
    bounds = await readExtents(ctx);
  } catch {
    bounds = undefined;
  }
  const id = await wm.resolveWindow({
    ...(ctx.data.app.processId !== undefined ? { processId: ctx.data.app.processId } : {}),
    name: ctx.data.name,
    ...(bounds ? { bounds } : {}),
  });
  if (id === undefined) {
    throw new InspectorError('action-failed', `no top-level window found for "${ctx.data.name}"`, {
      runtimeId: ctx.data.key,
    });
  }
  return id;
}

/** How long scrollIntoView waits for the element to move; an element already in view does not. */
const SCROLL_SETTLE_MS = 1000;
const SCROLL_POLL_MS = 20;

/**
 * Chromium answers ScrollTo before its renderer has scrolled, and scrolling sends no event the provider hears: the
 * action is done once the element's extents moved (or SCROLL_SETTLE_MS passed: it was in view already).
 */
async function untilMoved(calls: PatternContext['calls'], ref: NodeData['ref'], before: Rect): Promise<void> {
  const deadline = performance.now() + SCROLL_SETTLE_MS;
  while (performance.now() < deadline) {
    const now = await calls.getExtents(ref);
    if (now.x !== before.x || now.y !== before.y) return;
    await new Promise((resolve) => setTimeout(resolve, SCROLL_POLL_MS));
  }
}

export async function performAction(ctx: PatternContext, request: ActionRequest): Promise<void> {
  const patterns = supportedPatterns(ctx);
  const { data, calls } = ctx;
  const need = (pattern: string) => {
    if (!patterns.includes(pattern)) {
      throw new InspectorError('unsupported', `${request.action}: the element does not support ${pattern}`, {
        runtimeId: data.key,
      });
    }
  };
  const wm = ctx.windowManager;
  switch (request.action) {
    case 'activate':
      need('Activatable');
      if (isWindowRole(data.role) && wm) return wm.activate(await resolveWindow(ctx));
      return doNamedAction(ctx, ACTIVATE_ACTIONS, 'activate');
    case 'toggle':
      need('Toggleable');
      return doNamedAction(ctx, TOGGLE_ACTIONS, 'toggle');
    case 'expand':
      need('Expandable');
      return doNamedAction(ctx, EXPAND_ACTIONS, 'expand');
    case 'collapse':
      need('Expandable');
      return doNamedAction(ctx, COLLAPSE_ACTIONS, 'collapse');
    case 'select': {
      need('Selectable');
      const parent = ctx.parentData;
      if (parent && hasInterface(parent, 'Selection') && parent.children) {
        const index = parent.children.indexOf(data.key);
        if (index >= 0 && (await calls.selectChild(parent.ref, index))) return;
      }
      return doNamedAction(ctx, SELECT_ACTIONS, 'select');
    }
    case 'focus': {
      need('Focusable');
      const ok = await calls.grabFocus(data.ref);
      if (!ok) throw new InspectorError('action-failed', 'focus: the application refused to focus the element');
      return;
    }
    case 'setValue': {
      if (
        typeof request.value === 'number' ||
        (patterns.includes('StatefulValue') && !patterns.includes('TextEditable'))
      ) {
        need('StatefulValue');
        const value = Number(request.value);
        if (!Number.isFinite(value)) throw new InspectorError('invalid-input', 'setValue needs a number');
        return calls.setCurrentValue(data.ref, value);
      }
      need('TextEditable');
      const ok = await calls.setTextContents(data.ref, String(request.value ?? ''));
      if (!ok) throw new InspectorError('action-failed', 'setValue: the application refused the new text');
      return;
    }
    case 'clear': {
      need('Clearable');
      const ok = await calls.setTextContents(data.ref, '');
      if (!ok) throw new InspectorError('action-failed', 'clear: the application refused to clear the text');
      return;
    }
    case 'scrollIntoView': {
      need('ScrollItem');
      const before = await calls.getExtents(data.ref);
      // An application without ScrollTo answers UnknownMethod, which the D-Bus client reports as unsupported.
      const scrolled = await calls.scrollTo(data.ref);
      if (!scrolled) {
        throw new InspectorError(
          'unsupported',
          'scrollIntoView: the application does not scroll this element into view (Component.ScrollTo answered false)',
          { runtimeId: data.key },
        );
      }
      return untilMoved(calls, data.ref, before);
    }
    case 'minimize':
      need('Minimizable');
      return (wm as WindowManager).minimize(await resolveWindow(ctx));
    case 'maximize':
      need('Maximizable');
      return (wm as WindowManager).maximize(await resolveWindow(ctx));
    case 'restore':
      need('Restorable');
      return (wm as WindowManager).restore(await resolveWindow(ctx));
    case 'close':
      need('Closeable');
      return (wm as WindowManager).close(await resolveWindow(ctx));
    case 'move':
      need('Movable');
      return (wm as WindowManager).move(await resolveWindow(ctx), Number(request.x ?? 0), Number(request.y ?? 0));
    case 'resize':
      need('Resizable');
      return (wm as WindowManager).resize(
        await resolveWindow(ctx),
        Number(request.width ?? 0),
        Number(request.height ?? 0),
      );
    case 'acceptsUserInput':
      need('Responsive');
      if (!hasState(data.states, S.Sensitive) || !hasState(data.states, S.Showing)) {
        throw new InspectorError('action-failed', 'the window does not accept user input', { runtimeId: data.key });
      }
      return;
    default:
      throw new InspectorError('unsupported', `unknown action "${request.action}"`, { runtimeId: data.key });
  }
}
