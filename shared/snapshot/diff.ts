/**
 * The difference between two snapshots: which nodes were added, removed or changed, with their attributes. Nodes
 * are matched level by level under matched parents: by RuntimeId where both sides have one, then by role and Id,
 * then by role and Name, then by role in order (a node whose Name changed is the same node, changed). An added or removed node stands
 * for its whole subtree (its descendants are counted, not listed).
 */
import { AttributeNames, type AttributeEntry } from '../model/attributes.js';
import { attributeKey, qualifiedRole } from '../model/namespaces.js';
import { formatValueText, valuesEqual } from '../model/values.js';
import type { SnapshotNode } from './model.js';

export interface AttributeChange {
  /** As written in XPath: `Name`, `native:Role`. */
  name: string;
  /** The value text before (absent: the attribute was added). */
  before?: string;
  /** The value text after (absent: the attribute was removed). */
  after?: string;
}

export interface SnapshotDiffEntry {
  kind: 'added' | 'removed' | 'changed';
  /** The node's place: its ancestors' labels and its own, `app:Application "gtk3-demo" / Frame / Button "OK"`. */
  path: string;
  /** `Button "OK"` (the label on the side the node is on; for a change, after it). */
  label: string;
  /** Added or removed: every attribute of the node; changed: the attributes that differ. */
  attributes: AttributeChange[];
  /** Nodes below an added or removed node (0 for a change). */
  descendants: number;
}

export interface SnapshotDiff {
  same: boolean;
  /** Nodes in each snapshot. */
  nodes: { before: number; after: number };
  added: number;
  removed: number;
  changed: number;
  /** In document order; at most `maxEntries` (then `truncated`). */
  entries: SnapshotDiffEntry[];
  truncated: boolean;
}

export interface SnapshotDiffOptions {
  /** Stop listing entries after this many (the counts stay whole). */
  maxEntries?: number;
}

function controlText(node: SnapshotNode, name: string): string | undefined {
  const entry = node.attributes.find((a) => a.namespace === 'control' && a.name === name);
  return entry ? formatValueText(entry.value) : undefined;
}

function labelOf(node: SnapshotNode): string {
  const role = qualifiedRole(node.namespace, node.role);
  const name = controlText(node, AttributeNames.Name);
  return name ? `${role} "${name}"` : role;
}

function countNodes(roots: readonly SnapshotNode[]): number {
  let count = 0;
  const stack = [...roots];
  while (stack.length) {
    const node = stack.pop()!;
    count++;
    for (const child of node.children) stack.push(child);
  }
  return count;
}

function attributeName(entry: AttributeEntry): string {
  return attributeKey(entry.namespace, entry.name);
}

function allAttributes(node: SnapshotNode, side: 'before' | 'after'): AttributeChange[] {
  return node.attributes.map((entry) => ({ name: attributeName(entry), [side]: formatValueText(entry.value) }));
}

function changedAttributes(before: SnapshotNode, after: SnapshotNode): AttributeChange[] {
  const out: AttributeChange[] = [];
  const later = new Map(after.attributes.map((entry) => [attributeName(entry), entry]));
  for (const entry of before.attributes) {
    const name = attributeName(entry);
    const other = later.get(name);
    later.delete(name);
    if (!other) out.push({ name, before: formatValueText(entry.value) });
    else if (!valuesEqual(entry.value, other.value))
      out.push({ name, before: formatValueText(entry.value), after: formatValueText(other.value) });
  }
  for (const [name, entry] of later) out.push({ name, after: formatValueText(entry.value) });
  return out;
}

/** Pairs the children of two matched nodes; what stays unpaired was removed (before) or added (after). */
function pairChildren(
  before: readonly SnapshotNode[],
  after: readonly SnapshotNode[],
): Array<[SnapshotNode | undefined, SnapshotNode | undefined]> {
  const partner = new Map<SnapshotNode, SnapshotNode>();
  const taken = new Set<SnapshotNode>();
  const pass = (key: (node: SnapshotNode) => string | undefined) => {
    const waiting = new Map<string, SnapshotNode[]>();
    for (const node of after) {
      if (taken.has(node)) continue;
      const k = key(node);
      if (k === undefined) continue;
      const list = waiting.get(k);
      if (list) list.push(node);
      else waiting.set(k, [node]);
    }
    for (const node of before) {
      if (partner.has(node)) continue;
      const k = key(node);
      const match = k === undefined ? undefined : waiting.get(k)?.shift();
      if (match) {
        partner.set(node, match);
        taken.add(match);
      }
    }
  };
  const role = (node: SnapshotNode) => qualifiedRole(node.namespace, node.role);
  pass((node) => controlText(node, AttributeNames.RuntimeId));
  pass((node) => {
    const id = controlText(node, AttributeNames.Id);
    return id ? `${role(node)}\0${id}` : undefined;
  });
  pass(
    (node) =>
      `${role(node)}\0${controlText(node, AttributeNames.Name) ?? ''}\0${controlText(node, AttributeNames.Id) ?? ''}`,
  );
  pass(role);
  // Document order of the after side, with removed nodes where they stood before.
  const pairs: Array<[SnapshotNode | undefined, SnapshotNode | undefined]> = [];
  const byAfter = new Map<SnapshotNode, SnapshotNode>();
  for (const [b, a] of partner) byAfter.set(a, b);
  let b = 0;
  for (const node of after) {
    const match = byAfter.get(node);
    if (match) {
      while (b < before.length && before[b] !== match) {
        if (!partner.has(before[b]!)) pairs.push([before[b], undefined]);
        b++;
      }
      b++;
      pairs.push([match, node]);
    } else pairs.push([undefined, node]);
  }
  for (; b < before.length; b++) if (!partner.has(before[b]!)) pairs.push([before[b], undefined]);
  return pairs;
}

export function diffSnapshots(
  before: readonly SnapshotNode[],
  after: readonly SnapshotNode[],
  options: SnapshotDiffOptions = {},
): SnapshotDiff {
  const maxEntries = options.maxEntries ?? Infinity;
  const diff: SnapshotDiff = {
    same: true,
    nodes: { before: countNodes(before), after: countNodes(after) },
    added: 0,
    removed: 0,
    changed: 0,
    entries: [],
    truncated: false,
  };
  const record = (entry: SnapshotDiffEntry) => {
    diff.same = false;
    diff[entry.kind]++;
    if (diff.entries.length < maxEntries) diff.entries.push(entry);
    else diff.truncated = true;
  };
  const stack: Array<{ before: readonly SnapshotNode[]; after: readonly SnapshotNode[]; path: string }> = [
    { before, after, path: '' },
  ];
  while (stack.length) {
    const level = stack.pop()!;
    const deeper: typeof stack = [];
    for (const [b, a] of pairChildren(level.before, level.after)) {
      const label = labelOf((a ?? b)!);
      const path = level.path ? `${level.path} / ${label}` : label;
      if (b && a) {
        const attributes = changedAttributes(b, a);
        const roleChanged = b.namespace !== a.namespace || b.role !== a.role;
        if (attributes.length > 0 || roleChanged) {
          if (roleChanged)
            attributes.unshift({
              name: 'Role',
              before: qualifiedRole(b.namespace, b.role),
              after: qualifiedRole(a.namespace, a.role),
            });
          record({ kind: 'changed', path, label, attributes, descendants: 0 });
        }
        deeper.push({ before: b.children, after: a.children, path });
      } else if (b) {
        record({
          kind: 'removed',
          path,
          label,
          attributes: allAttributes(b, 'before'),
          descendants: countNodes(b.children),
        });
      } else if (a) {
        record({
          kind: 'added',
          path,
          label,
          attributes: allAttributes(a, 'after'),
          descendants: countNodes(a.children),
        });
      }
    }
    // Depth first, in document order: the first child's level is taken next.
    for (let i = deeper.length - 1; i >= 0; i--) stack.push(deeper[i]!);
  }
  return diff;
}

const SIGN = { added: '+', removed: '-', changed: '~' } as const;

/** The diff as lines for a terminal: one per node, its attributes indented below, then a summary line. */
export function formatSnapshotDiff(diff: SnapshotDiff): string {
  const lines: string[] = [];
  for (const entry of diff.entries) {
    const below = entry.descendants > 0 ? ` (and ${entry.descendants} below)` : '';
    lines.push(`${SIGN[entry.kind]} ${entry.kind} ${entry.path}${below}`);
    for (const attribute of entry.attributes) {
      if (entry.kind === 'changed') {
        const before = attribute.before === undefined ? '(none)' : JSON.stringify(attribute.before);
        const after = attribute.after === undefined ? '(none)' : JSON.stringify(attribute.after);
        lines.push(`    ${attribute.name}: ${before} -> ${after}`);
      } else lines.push(`    ${attribute.name}=${JSON.stringify(attribute.after ?? attribute.before ?? '')}`);
    }
  }
  lines.push(
    diff.same
      ? `same: ${diff.nodes.before} nodes`
      : `${diff.added} added, ${diff.removed} removed, ${diff.changed} changed (${diff.nodes.before} nodes before, ${diff.nodes.after} after)${diff.truncated ? '; list cut off' : ''}`,
  );
  return `${lines.join('\n')}\n`;
}
