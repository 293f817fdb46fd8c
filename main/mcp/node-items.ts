import { AttributeNames as A, type AttributeEntry } from '../../shared/model/attributes.js';
import type { Rect } from '../../shared/model/values.js';
import type { RuntimeNode } from '../runtime/node.js';
import { roleLabel } from '../services/snapshot.js';
import type { ShortIds } from './short-ids.js';

/** A node as agents see it: the item of ui_query's `items` and of ui_tree's nested tree. */
export interface NodeItem {
  id: string;
  revision: number;
  role: string;
  name: string;
  states: string[];
  bounds: Rect | null;
}

/** An item with what the text line shows besides it. */
export interface NodeView {
  item: NodeItem;
  /** The value as the line shows it; `<secure>` for a secure field (whose value is never read). */
  value: string | undefined;
}

/** Longest value a line shows, in characters. */
const MAX_VALUE_CHARS = 200;
export const SECURE_VALUE = '<secure>';

/** The state flags, all held by the providers after a bulk load (no call per node). */
const STATE_NAMES = [
  A.IsEnabled,
  A.IsVisible,
  A.IsInView,
  A.IsFocused,
  A.IsSelected,
  A.IsExpanded,
  A.ToggleState,
  A.IsReadOnly,
];

function boolOf(entries: readonly AttributeEntry[], name: string): boolean | undefined {
  const entry = entries.find((candidate) => candidate.name === name);
  return entry?.value.type === 'Bool' ? entry.value.value : undefined;
}

function statesOf(node: RuntimeNode, entries: readonly AttributeEntry[]): string[] {
  const states: string[] = [];
  if (boolOf(entries, A.IsFocused)) states.push('focused');
  if (boolOf(entries, A.IsEnabled) === false) states.push('disabled');
  const toggle = entries.find((entry) => entry.name === A.ToggleState)?.value;
  if (toggle?.type === 'String' && toggle.value === 'On') states.push('checked');
  if (toggle?.type === 'String' && toggle.value === 'Indeterminate') states.push('mixed');
  if (boolOf(entries, A.IsSelected)) states.push('selected');
  const expanded = boolOf(entries, A.IsExpanded);
  if (expanded !== undefined) states.push(expanded ? 'expanded' : 'collapsed');
  if (boolOf(entries, A.IsReadOnly) === false) states.push('editable');
  if (boolOf(entries, A.IsVisible) === false) states.push('hidden');
  else if (boolOf(entries, A.IsInView) === false) states.push('offscreen');
  if (node.isSecure) states.push('secure');
  return states;
}

async function entriesNamed(node: RuntimeNode, names: readonly string[]): Promise<readonly AttributeEntry[]> {
  const held = node.peekAttributesNamed(names);
  if (held) return held.filter((entry) => entry.namespace === 'control');
  const found = await Promise.all(names.map((name) => node.attributesNamed(name).catch(() => [])));
  return found.flat().filter((entry) => entry.namespace === 'control');
}

function valueText(entries: readonly AttributeEntry[]): string | undefined {
  const entry = entries.find((candidate) => candidate.name === A.Value) ?? entries.find((c) => c.name === A.Text);
  if (!entry) return undefined;
  const value = entry.value;
  const text =
    value.type === 'String'
      ? value.value
      : value.type === 'Integer' || value.type === 'Number'
        ? String(value.value)
        : undefined;
  if (text === undefined) return undefined;
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

/**
 * Reads what a line shows of a node: its states (held), its bounds, and its value where it has one (a range's Value,
 * an editable field's Text). A secure node's value is never read: the runtime does not hand it out, and the line
 * says `<secure>`.
 */
export async function viewOf(node: RuntimeNode, ids: ShortIds): Promise<NodeView> {
  const revision = node.revision;
  const states = await entriesNamed(node, STATE_NAMES).catch((): readonly AttributeEntry[] => []);
  const editable = boolOf(states, A.IsReadOnly) === false;
  const valueNames = node.isSecure ? [] : editable ? [A.Value, A.Text] : [A.Value];
  const [boundsEntries, valueEntries] = await Promise.all([
    entriesNamed(node, [A.Bounds]).catch((): readonly AttributeEntry[] => []),
    valueNames.length > 0 ? entriesNamed(node, valueNames).catch((): readonly AttributeEntry[] => []) : [],
  ]);
  const bounds = boundsEntries.find((entry) => entry.name === A.Bounds)?.value;
  return {
    item: {
      id: ids.id(node),
      revision,
      role: roleLabel(node),
      name: node.name,
      states: statesOf(node, states),
      bounds: bounds?.type === 'Rect' ? { ...bounds.value } : null,
    },
    value: node.isSecure ? SECURE_VALUE : valueText(valueEntries),
  };
}

/**
 * One node as a line: `e12 r3 Button "Save" value="x" states=focused,disabled @10,10 80x32`. Every string from the
 * application is JSON-quoted, so no name can start a line of its own or pose as another field.
 */
export function lineOf(view: NodeView): string {
  const { item } = view;
  const parts = [`${item.id} r${item.revision}`, item.role];
  if (item.name) parts.push(JSON.stringify(item.name));
  if (view.value === SECURE_VALUE) parts.push(`value=${SECURE_VALUE}`);
  else if (view.value !== undefined && view.value !== '') parts.push(`value=${JSON.stringify(view.value)}`);
  if (item.states.length > 0) parts.push(`states=${item.states.join(',')}`);
  if (item.bounds) {
    const b = item.bounds;
    parts.push(`@${Math.round(b.x)},${Math.round(b.y)} ${Math.round(b.width)}x${Math.round(b.height)}`);
  }
  return parts.join(' ');
}
