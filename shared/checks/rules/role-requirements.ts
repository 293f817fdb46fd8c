import { AttributeNames as A } from '../../model/attributes.js';
import { describeNode, hasNativeStates, isShowing, nativeStates, numberAttribute } from '../facts.js';
import type { CheckNode, Rule, RuleHit } from '../model.js';

const TOGGLE_ROLES = new Set(['CheckBox', 'ToggleButton', 'RadioButton', 'Switch']);
const RANGE_ROLES = new Set(['Slider', 'SpinButton', 'ScrollBar']);
const HEADER_ROLES = new Set(['ColumnHeader', 'RowHeader', 'TableColumnHeader', 'TableRowHeader', 'Header']);
const TABLE_ROLES = new Set(['Table', 'TreeTable']);
/** Headers sit in the table, in a header row, or in a row group below it. */
const HEADER_SEARCH_DEPTH = 3;
const TABLE_HEADER_ATTRIBUTES = ['native:Table.ColumnHeaders', 'native:Table.RowHeaders', 'ColumnHeaders'];

function headersOf(node: CheckNode, depth: number, out: CheckNode[] = []): CheckNode[] {
  if (depth === 0) return out;
  for (const child of node.children) {
    if (HEADER_ROLES.has(child.role)) out.push(child);
    else headersOf(child, depth - 1, out);
  }
  return out;
}

/** A header a user meets: named, and shown where the provider says what is shown (GTK keeps hidden headers). */
function isPresentHeader(header: CheckNode): boolean {
  return header.name.trim() !== '' && (!hasNativeStates(header) || isShowing(header));
}

/** A table the rule judges by its header lists: it has children, and none of them (to three levels) is a header. */
export function needsTableHeaderAttributes(node: CheckNode): boolean {
  return (
    node.namespace === 'control' &&
    TABLE_ROLES.has(node.role) &&
    node.children.length > 0 &&
    headersOf(node, HEADER_SEARCH_DEPTH).length === 0
  );
}

function hasHeaders(table: CheckNode): boolean {
  const headers = headersOf(table, HEADER_SEARCH_DEPTH);
  if (headers.length > 0) return headers.some(isPresentHeader);
  return TABLE_HEADER_ATTRIBUTES.some((name) => {
    const value = table.attributes.get(name);
    return value?.type === 'Array' && value.value.length > 0;
  });
}

function reportsToggleState(node: CheckNode): boolean {
  if (node.attributes.has(A.ToggleState)) return true;
  const states = nativeStates(node);
  return states.has('checkable') || states.has('checked') || states.has('pressed') || states.has('indeterminate');
}

export const roleRequirements: Rule = {
  id: 'role-requirements',
  severity: 'error',
  title: 'An element lacks what its role requires',
  wcag: ['1.3.1 Info and Relationships', '4.1.2 Name, Role, Value'],
  help:
    'A check box must say whether it is checked, a slider or progress bar its range, a table its headers; ' +
    'without them a screen reader user hears "check box" with no state, a number without a scale, or cells ' +
    'without their column.',
  check(node) {
    if (node.namespace !== 'control') return [];
    const hits: RuleHit[] = [];
    if (TOGGLE_ROLES.has(node.role) && !reportsToggleState(node)) {
      hits.push({ message: `${describeNode(node)} does not report whether it is checked` });
    }
    if (RANGE_ROLES.has(node.role) || node.role === 'ProgressBar') {
      const min = numberAttribute(node, A.MinValue);
      const max = numberAttribute(node, A.MaxValue);
      const indeterminate = node.role === 'ProgressBar' && nativeStates(node).has('indeterminate');
      if (!indeterminate && (min === undefined || max === undefined)) {
        hits.push({ message: `${describeNode(node)} has no value range (minimum and maximum)` });
      } else if (
        !indeterminate &&
        min !== undefined &&
        max !== undefined &&
        max <= min &&
        node.role !== 'ProgressBar'
      ) {
        hits.push({ message: `${describeNode(node)} has an empty value range (${min} to ${max})` });
      }
    }
    if (TABLE_ROLES.has(node.role) && node.children.length > 0 && !hasHeaders(node)) {
      hits.push({ message: `${describeNode(node)} has no row or column headers` });
    }
    return hits;
  },
};
