import { AttributeNames } from '../../shared/model/attributes.js';
import { InspectorError } from '../../shared/model/errors.js';
import type { PlatformBundle } from '../core/platform.js';
import { KeyboardController } from '../runtime/input/keyboard.js';
import { KeyboardSequence } from '../runtime/input/keyboard-sequence.js';
import { PointerController } from '../runtime/input/pointer.js';
import { abortableClock, realClock, type InputClock } from '../runtime/input/timing.js';
import type { RuntimeNode } from '../runtime/node.js';
import { actionPointOf } from '../services/bounds.js';
import { performPatternAction } from '../services/patterns.js';
import { activateWindowOf } from '../services/windows.js';
import { AgentError } from './errors.js';
import { viewOf, type NodeView } from './node-items.js';
import { ReactionWatch, type Reaction } from './reaction.js';
import type { McpContext } from './context.js';

/** The actions of ui_act, named as in the CrownUI design (Testing Library and Playwright). */
export type AgentAction =
  | { action: 'click' }
  | { action: 'double_click' }
  | { action: 'focus' }
  | { action: 'type_text'; text: string }
  | { action: 'press_key'; key: string }
  | { action: 'set_value'; value: string | number }
  | { action: 'toggle' }
  | { action: 'select' }
  | { action: 'expand' }
  | { action: 'collapse' }
  | { action: 'scroll_into_view' };

export type AgentActionName = AgentAction['action'];

export const ACTION_NAMES: readonly AgentActionName[] = [
  'click',
  'double_click',
  'focus',
  'type_text',
  'press_key',
  'set_value',
  'toggle',
  'select',
  'expand',
  'collapse',
  'scroll_into_view',
];

/** Actions that write into the node: never into a secure field (an agent must not type or set a password). */
const WRITES: ReadonlySet<AgentActionName> = new Set(['type_text', 'press_key', 'set_value']);

/** The pattern action behind each action that goes through patterns (the rest is real input). */
const PATTERN_ACTIONS: Partial<Record<AgentActionName, string>> = {
  focus: 'focus',
  set_value: 'setValue',
  toggle: 'toggle',
  select: 'select',
  expand: 'expand',
  collapse: 'collapse',
  scroll_into_view: 'scrollIntoView',
};

export interface ActOutcome {
  id: string;
  /** The node's revision once the application reacted: what the next action on it must name. */
  revision: number;
  /** The node went away in the reaction (a closed dialog's button). */
  removed: boolean;
  reaction: Reaction;
  view: NodeView | undefined;
}

/** Refuses an action the node cannot take now: changed since read, disabled, or writing into a secure field. */
async function check(node: RuntimeNode, id: string, revision: number, action: AgentActionName): Promise<void> {
  if (node.revision !== revision) {
    throw new AgentError(
      'stale-node',
      `node ${id} changed since it was read (revision ${revision}, now ${node.revision}); read it again and retry`,
    );
  }
  const named = await node.attributesNamed(AttributeNames.IsEnabled).catch(() => []);
  const enabled = named.find((entry) => entry.namespace === 'control');
  if (enabled?.value.type === 'Bool' && !enabled.value.value) {
    throw new AgentError('disabled', `node ${id} is disabled; ${action} refused`);
  }
  if (node.isSecure && WRITES.has(action)) {
    throw new AgentError('secure-field', `node ${id} is a secure field; ${action} into it is refused`);
  }
}

function device<K extends 'pointer' | 'keyboard'>(
  platform: PlatformBundle | undefined,
  name: K,
): NonNullable<PlatformBundle[K]> {
  const found = platform?.[name];
  if (found) return found as NonNullable<PlatformBundle[K]>;
  const reason = platform?.unavailable.find((entry) => entry.device === name)?.reason;
  throw new InspectorError('unsupported', `no ${name} on this platform${reason ? `: ${reason}` : ''}`);
}

/** Literal text as a keyboard sequence (the sequence notation's `<`, `>` and `\` escaped). */
export function literalSequence(text: string): string {
  return text.replace(/[\\<>]/g, (char) => `\\${char}`);
}

/** A key combination such as `Ctrl+S` or `Enter` as a sequence; invalid-input when it is not one. */
export function keySequence(key: string): KeyboardSequence {
  if (!/^[^<>\s]+( [^<>\s]+)*$/.test(key)) {
    throw new InspectorError(
      'invalid-input',
      `action.key must be a key combination such as "Ctrl+S" or "Enter", got ${JSON.stringify(key)}`,
      {
        path: 'action.key',
      },
    );
  }
  return KeyboardSequence.parse(`<${key}>`);
}

/** Gives the node the keyboard focus; the window raised just before may have changed it (checked already). */
async function focusForTyping(context: McpContext, node: RuntimeNode, clock: InputClock): Promise<void> {
  const patterns = await node.supportedPatterns();
  if (patterns.includes('Focusable')) await performPatternAction(node, node.revision, 'focus', {});
  else {
    const pointer = new PointerController(device(context.runtime.platform, 'pointer'), { clock });
    await pointer.click(await actionPointOf(node));
  }
}

/** Input stops at its next pause when the request is cancelled, and lets go of what it holds. */
async function perform(
  context: McpContext,
  node: RuntimeNode,
  revision: number,
  request: AgentAction,
  clock: InputClock,
): Promise<void> {
  const platform = context.runtime.platform;
  switch (request.action) {
    case 'click':
    case 'double_click': {
      const pointer = new PointerController(device(platform, 'pointer'), { clock });
      const point = await actionPointOf(node);
      await activateWindowOf(platform?.windowManager, node);
      if (request.action === 'click') await pointer.click(point);
      else await pointer.multiClick(point, 'left', 2);
      return;
    }
    case 'type_text':
    case 'press_key': {
      const keyboard = new KeyboardController(device(platform, 'keyboard'), undefined, clock);
      const sequence =
        request.action === 'press_key'
          ? keySequence(request.key)
          : KeyboardSequence.parse(literalSequence(request.text));
      await activateWindowOf(platform?.windowManager, node);
      await focusForTyping(context, node, clock);
      await keyboard.type(sequence);
      return;
    }
    default: {
      const patternAction = PATTERN_ACTIONS[request.action]!;
      const args = request.action === 'set_value' ? { value: request.value } : {};
      await performPatternAction(node, revision, patternAction, args);
    }
  }
}

/**
 * Runs an action on the node an agent read at `revision` and answers once the application reacted, with the node's
 * new revision.
 */
export async function act(
  context: McpContext,
  id: string,
  revision: number,
  request: AgentAction,
  signal?: AbortSignal,
): Promise<ActOutcome> {
  const node = context.node(id);
  await check(node, id, revision, request.action);
  const watch = new ReactionWatch(context.runtime);
  try {
    await perform(context, node, revision, request, signal ? abortableClock(signal) : realClock);
  } catch (error) {
    watch.cancel();
    throw error;
  }
  if (request.action === 'scroll_into_view') {
    // Scrolling moves the element without an event; the provider answered once it moved: that is the reaction.
    watch.note();
    node.invalidate({ children: false, source: false });
  }
  const reaction = await watch.settled();
  const view = node.isRemoved ? undefined : await viewOf(node, context.ids).catch(() => undefined);
  return { id, revision: view?.item.revision ?? node.revision, removed: node.isRemoved, reaction, view };
}
