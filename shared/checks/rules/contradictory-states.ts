import { AttributeNames as A } from '../../model/attributes.js';
import {
  boolAttribute,
  describeNode,
  hasNativeStates,
  isEnabled,
  isFocusable,
  isFocused,
  nativeStates,
  patterns,
  stringAttribute,
} from '../facts.js';
import type { CheckNode, Rule, RuleHit } from '../model.js';

const TOGGLE_ROLES = new Set(['CheckBox', 'RadioButton', 'ToggleButton', 'Switch', 'MenuItem']);
const SELECTION_CONTAINER_ROLES = new Set([
  'List',
  'ListBox',
  'Tree',
  'TreeTable',
  'Table',
  'Tab',
  'Menu',
  'MenuBar',
  'PopupMenu',
  'ComboBox',
  'Grid',
]);
const SELECTION_INTERFACE = 'org.a11y.atspi.Selection';
/** How far up a selectable item's container may be (rows inside a table inside a scroll pane ...). */
const CONTAINER_SEARCH_DEPTH = 4;

function canBeChecked(node: CheckNode): boolean {
  return nativeStates(node).has('checkable') || patterns(node).has('Toggleable') || TOGGLE_ROLES.has(node.role);
}

function isChecked(node: CheckNode): boolean {
  return nativeStates(node).has('checked') || stringAttribute(node, A.ToggleState) === 'On';
}

function isSelected(node: CheckNode): boolean {
  return boolAttribute(node, A.IsSelected) === true || nativeStates(node).has('selected');
}

function isSelectionContainer(node: CheckNode): boolean {
  if (SELECTION_CONTAINER_ROLES.has(node.role)) return true;
  const supported = patterns(node);
  if (supported.has('SelectionProvider') || supported.has('ItemContainer')) return true;
  const interfaces = node.attributes.get('native:Accessible.Interfaces');
  return (
    interfaces?.type === 'Array' && interfaces.value.some((v) => v.type === 'String' && v.value === SELECTION_INTERFACE)
  );
}

function insideSelectionContainer(node: CheckNode): boolean {
  let current = node.parent;
  for (let depth = 0; current && depth < CONTAINER_SEARCH_DEPTH; depth++, current = current.parent) {
    if (isSelectionContainer(current)) return true;
  }
  return false;
}

export const contradictoryStates: Rule = {
  id: 'contradictory-states',
  severity: 'warning',
  title: 'States that contradict each other',
  wcag: ['4.1.2 Name, Role, Value'],
  help:
    'Assistive technology trusts the states an element reports. Focused but not focusable, checked on something ' +
    'that cannot be checked, selected outside anything that selects, or disabled yet focusable, mislead it; the ' +
    'element usually reports a stale or hand-set state.',
  check(node) {
    const hits: RuleHit[] = [];
    const statesKnown = hasNativeStates(node) || node.attributes.has(A.SupportedPatterns);
    if (statesKnown && isFocused(node) && !isFocusable(node)) {
      hits.push({ message: `${describeNode(node)} reports focus but is not focusable` });
    }
    if (isChecked(node) && !canBeChecked(node))
      hits.push({ message: `${describeNode(node)} is checked but cannot be checked` });
    if (isSelected(node) && node.parent && !insideSelectionContainer(node)) {
      hits.push({ message: `${describeNode(node)} is selected but no container around it offers selection` });
    }
    if (!isEnabled(node) && nativeStates(node).has('focusable') && nativeStates(node).has('focused')) {
      hits.push({ message: `${describeNode(node)} is disabled yet has the keyboard focus` });
    } else if (!isEnabled(node) && hasNativeStates(node) && nativeStates(node).has('focusable')) {
      hits.push({ message: `${describeNode(node)} is disabled yet focusable` });
    }
    return hits;
  },
};
