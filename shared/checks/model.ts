import { attributeKey, type Namespace } from '../model/namespaces.js';
import type { AttributeEntry } from '../model/attributes.js';
import type { UiValue } from '../model/values.js';
import type { SnapshotNode } from '../snapshot/model.js';

/**
 * A node of the tree the accessibility rules run over: what the runtime (or a snapshot file) knows of it, attribute
 * values typed and keyed like JSON output (`Name`, `native:Accessible.States`). Built once per check run.
 */
export interface CheckNode {
  readonly namespace: Namespace;
  readonly role: string;
  readonly name: string;
  /** The runtime id where known, else a path made while building; findings name their node by it. */
  readonly key: string;
  readonly attributes: ReadonlyMap<string, UiValue>;
  readonly parent: CheckNode | undefined;
  readonly children: readonly CheckNode[];
}

export type Severity = 'error' | 'warning' | 'info';

export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/** The formats a check report is written in (shared/checks/report/formats.ts). */
export const CHECK_FORMATS = ['text', 'json', 'sarif', 'junit'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

/** How much a severity weighs: `--fail-on warning` fails on warnings and errors. */
export function severityRank(severity: Severity): number {
  return severity === 'error' ? 2 : severity === 'warning' ? 1 : 0;
}

/** One problem a rule found on one node. */
export interface Finding {
  readonly rule: string;
  readonly severity: Severity;
  readonly message: string;
  readonly node: CheckNode;
}

/** A rule's verdict on one node, before the engine adds the rule's id and the configured severity. */
export interface RuleHit {
  readonly message: string;
}

export interface Rule {
  readonly id: string;
  readonly severity: Severity;
  /** One line: what the rule looks for. */
  readonly title: string;
  /** The WCAG 2.2 success criteria the rule serves, as `1.1.1 Non-text Content`. */
  readonly wcag: readonly string[];
  /** Why it matters and how to fix it, for a person reading a finding. */
  readonly help: string;
  check(node: CheckNode): readonly RuleHit[];
}

interface MutableCheckNode {
  namespace: Namespace;
  role: string;
  name: string;
  key: string;
  attributes: Map<string, UiValue>;
  parent: CheckNode | undefined;
  children: CheckNode[];
}

/**
 * A check node from a node's attribute entries (derived ones left out) and, where given, its runtime id (kept as the
 * RuntimeId attribute); `path` names it where it has no runtime id. Its children are added by the caller.
 */
export function newCheckNode(
  namespace: Namespace,
  role: string,
  entries: readonly AttributeEntry[],
  parent: CheckNode | undefined,
  path: string,
  runtimeId?: string,
): CheckNode & { readonly children: CheckNode[] } {
  const attributes = new Map<string, UiValue>();
  for (const entry of entries) {
    if (!entry.derived) attributes.set(attributeKey(entry.namespace, entry.name), entry.value);
  }
  if (runtimeId !== undefined) attributes.set('RuntimeId', { type: 'String', value: runtimeId });
  const id = attributes.get('RuntimeId');
  const name = attributes.get('Name');
  const node: MutableCheckNode = {
    namespace,
    role,
    name: name?.type === 'String' ? name.value : '',
    key: id?.type === 'String' && id.value ? id.value : path,
    attributes,
    parent,
    children: [],
  };
  return node;
}

/** Builds check nodes from snapshot nodes (what `snapshot` writes and the runtime can produce for a subtree). */
export function checkTreeFromSnapshot(roots: readonly SnapshotNode[]): CheckNode[] {
  const build = (source: SnapshotNode, parent: CheckNode | undefined, path: string): CheckNode => {
    const node = newCheckNode(source.namespace, source.role, source.attributes, parent, path);
    source.children.forEach((child, index) => node.children.push(build(child, node, `${path}/${index + 1}`)));
    return node;
  };
  return roots.map((root, index) => build(root, undefined, `/${index + 1}`));
}

/** Adds a measured fact to a node built here (device checks measure on screen before the rules run). */
export function attachFact(node: CheckNode, key: string, value: UiValue): void {
  (node.attributes as Map<string, UiValue>).set(key, value);
}

/** Every node of the trees below (and including) the roots, in document order, without recursion. */
export function* walkCheckTree(roots: readonly CheckNode[]): Generator<CheckNode> {
  const stack = [...roots].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    yield node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
}
