import { uiArray, uiObject, uiString, type UiValue } from '../../../shared/model/values.js';
import type { AtspiCalls, ObjectRef } from './atspi-calls.js';
import { isNullRef } from './atspi-calls.js';
import { runtimeIdOf } from './node-data.js';

/** AT-SPI's relation types (AtspiRelationType), by number, named as libatspi's nicks. */
const RELATION_NAMES: readonly string[] = [
  'null',
  'label-for',
  'labelled-by',
  'controller-for',
  'controlled-by',
  'member-of',
  'tooltip-for',
  'node-child-of',
  'node-parent-of',
  'extended',
  'flows-to',
  'flows-from',
  'subwindow-of',
  'embeds',
  'embedded-by',
  'popup-for',
  'parent-window-of',
  'description-for',
  'described-by',
  'details',
  'details-for',
  'error-message',
  'error-for',
];

export function relationName(type: number): string {
  return RELATION_NAMES[type] ?? `relation-${type}`;
}

/** At most this many targets per relation and headers per table axis are read (a table can have 10^6 columns). */
export const MAX_RELATION_TARGETS = 1000;

/** A node's relations: relation name to the targets' runtime ids, in the order the application gave them. */
export async function readRelations(calls: AtspiCalls, ref: ObjectRef): Promise<ReadonlyMap<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const { type, targets } of await calls.getRelationSet(ref)) {
    const name = relationName(type);
    const ids = out.get(name) ?? [];
    for (const target of targets) {
      if (ids.length >= MAX_RELATION_TARGETS) break;
      if (!isNullRef(target)) ids.push(runtimeIdOf(target));
    }
    out.set(name, ids);
  }
  return out;
}

export function relationValue(relations: ReadonlyMap<string, string[]>, relation: string): UiValue {
  return uiArray((relations.get(relation) ?? []).map(uiString));
}

export function relationsObject(relations: ReadonlyMap<string, string[]>): UiValue {
  const out: { [name: string]: UiValue } = {};
  for (const [name, ids] of relations) out[name] = uiArray(ids.map(uiString));
  return uiObject(out);
}

/**
 * A table's column (or row) headers as runtime ids: `Table.GetColumnHeader` for each column, up to
 * MAX_RELATION_TARGETS; a column without a header is left out.
 */
export async function readTableHeaders(
  calls: AtspiCalls,
  ref: ObjectRef,
  axis: 'Column' | 'Row',
  count: number,
): Promise<UiValue> {
  const wanted = Math.max(0, Math.min(count, MAX_RELATION_TARGETS));
  const headers = await Promise.all(
    Array.from({ length: wanted }, (_, index) => calls.getTableHeader(ref, axis, index).catch(() => undefined)),
  );
  return uiArray(headers.filter((h): h is ObjectRef => !isNullRef(h)).map((h) => uiString(runtimeIdOf(h))));
}
