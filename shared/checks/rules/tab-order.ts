import { describeNode, isEnabled, isFocusable, isShowing, isWindowLike } from '../facts.js';
import type { CheckNode, Rule } from '../model.js';

/**
 * What the tab-order walk (main/services/tab-order.ts) learnt of a tab stop, attached before the rules run:
 * `{position}` where Tab reached it (1 = where the walk began), `{unreached: true, steps}` where it never did, and
 * `{trap}` (a sentence) on the element where focus got stuck or the cycle that never lets go began.
 */
export const TAB_ORDER_FACT = 'TabOrder';

/** An element Tab should reach: it takes focus, shows and is enabled (windows and applications are not stops). */
export function isTabStop(node: CheckNode): boolean {
  return node.namespace === 'control' && !isWindowLike(node) && isFocusable(node) && isShowing(node) && isEnabled(node);
}

function tabFact(node: CheckNode) {
  const value = node.attributes.get(TAB_ORDER_FACT);
  return value?.type === 'Object' ? value.value : undefined;
}

export const tabUnreachable: Rule = {
  id: 'tab-unreachable',
  severity: 'error',
  title: 'Tab never reaches an element that takes focus',
  wcag: ['2.1.1 Keyboard', '2.4.3 Focus Order'],
  help:
    'Keyboard users move between controls with Tab. An element that takes focus but is left out of the tab order ' +
    '(or sits behind a trap) cannot be reached without a mouse. Put it in the focus chain in reading order, or ' +
    'remove its focusability if it is not meant to be used.',
  check(node) {
    const fact = tabFact(node);
    if (fact?.unreached?.type !== 'Bool' || !fact.unreached.value) return [];
    const steps = fact.steps?.type === 'Number' || fact.steps?.type === 'Integer' ? fact.steps.value : 0;
    return [{ message: `${describeNode(node)} takes focus, but ${steps} press(es) of Tab never reached it` }];
  },
};

export const tabTrap: Rule = {
  id: 'tab-trap',
  severity: 'error',
  title: 'Tab cannot move the focus on: a keyboard trap',
  wcag: ['2.1.2 No Keyboard Trap', '2.4.3 Focus Order'],
  help:
    'Focus that Tab cannot move away from (an element that swallows Tab, or a group of elements Tab cycles through ' +
    'without reaching the rest) traps keyboard users. Let Tab move on, or tell users the standard key that leaves.',
  check(node) {
    const fact = tabFact(node);
    if (fact?.trap?.type !== 'String') return [];
    return [{ message: `${describeNode(node)}: ${fact.trap.value}` }];
  },
};

/** The rules only a tab-order walk can feed: left out of a run without one. */
export const TAB_ORDER_RULE_IDS: ReadonlySet<string> = new Set([tabUnreachable.id, tabTrap.id]);

/** How a tab-order walk of one window ended. */
export type TabWalkEnd = 'returned' | 'trap' | 'step-limit' | 'time-limit' | 'no-focus';

/** The end of a walk, for people (the CLI's order listing and the Checks panel). */
export const TAB_WALK_END_TEXT: { readonly [E in TabWalkEnd]: string } = {
  returned: 'the focus came back to the first stop',
  trap: 'the focus was trapped',
  'step-limit': 'stopped after the most presses allowed',
  'time-limit': 'stopped at the time limit',
  'no-focus': 'nothing took the focus',
};
