import type { AttributeEntry } from '../../shared/model/attributes.js';
import { AttributeNames, STATE_ATTRIBUTE_NAMES } from '../../shared/model/attributes.js';
import { attributeKey } from '../../shared/model/namespaces.js';
import type { JsonValue } from '../../shared/model/values.js';
import { toJsonValue } from '../../shared/model/values.js';
import type { SnapshotNode } from '../../shared/snapshot/model.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import type { XPathItem } from '../xpath/xpath-service.js';

export type AttributeSelection = 'none' | 'default' | 'all';

export interface SelectOptions {
  attrs: AttributeSelection;
  includeRuntimeId: boolean;
}

/** The attributes a snapshot or query writes: none, the default set (Name, Id, state flags), or all of them. */
export function selectAttributes(entries: readonly AttributeEntry[], options: SelectOptions): AttributeEntry[] {
  const withRuntimeId = options.includeRuntimeId || options.attrs === 'all';
  return entries.filter((entry) => {
    const control = entry.namespace === 'control';
    if (control && entry.name === AttributeNames.RuntimeId) return withRuntimeId;
    if (options.attrs === 'all') return true;
    if (options.attrs === 'none') return false;
    return (
      control &&
      (entry.name === AttributeNames.Name ||
        entry.name === AttributeNames.Id ||
        STATE_ATTRIBUTE_NAMES.includes(entry.name))
    );
  });
}

export function attributesJson(entries: readonly AttributeEntry[]): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  for (const entry of entries) out[attributeKey(entry.namespace, entry.name)] = toJsonValue(entry.value);
  return out;
}

export interface NodeJson {
  type?: 'node';
  runtimeId: string;
  namespace: string;
  role: string;
  name: string;
  attributes: { [key: string]: JsonValue };
  children?: NodeJson[];
}

export async function nodeJson(node: RuntimeNode, options: SelectOptions): Promise<NodeJson> {
  const attributes = await readSelected(node, options);
  return {
    runtimeId: node.runtimeId,
    namespace: node.namespace,
    role: node.role,
    name: node.name,
    attributes: attributesJson(selectAttributes(attributes, options)),
  };
}

export async function itemJson(item: XPathItem, options: SelectOptions): Promise<{ [key: string]: JsonValue }> {
  switch (item.type) {
    case 'node':
      return { type: 'node', ...(await nodeJson(item.node, options)) } as unknown as { [key: string]: JsonValue };
    case 'attribute':
      return {
        type: 'attribute',
        owner: item.owner.runtimeId,
        namespace: item.namespace,
        name: item.name,
        value: toJsonValue(item.value),
      };
    case 'value':
      return { type: 'value', value: toJsonValue(item.value) };
  }
}

export function roleLabel(node: { namespace: string; role: string }): string {
  return node.namespace === 'control' ? node.role : `${node.namespace}:${node.role}`;
}

export function textLine(node: RuntimeNode): string {
  return node.name ? `${roleLabel(node)} "${node.name}"` : roleLabel(node);
}

/** The names `--attrs default` writes, in the order it writes them. */
const DEFAULT_ATTRIBUTE_NAMES = [AttributeNames.Name, AttributeNames.Id, ...STATE_ATTRIBUTE_NAMES];

/**
 * Reads what the selection needs: everything for `all`, only the named attributes for `default` (a snapshot of a
 * large application must not read every attribute of every node), nothing for `none`.
 */
export async function readSelected(node: RuntimeNode, options: SelectOptions): Promise<readonly AttributeEntry[]> {
  const withRuntimeId = options.includeRuntimeId || options.attrs === 'all';
  if (options.attrs === 'all') return node.attributes();
  const names = options.attrs === 'default' ? [...DEFAULT_ATTRIBUTE_NAMES] : [];
  if (withRuntimeId) names.push(AttributeNames.RuntimeId);
  const found = await Promise.all(names.map((name) => node.attributesNamed(name)));
  return found.flat().filter((entry) => entry.namespace === 'control');
}

export interface SubtreeOptions extends SelectOptions {
  maxDepth: number | undefined;
}

export interface CollectedNode extends SnapshotNode {
  runtimeId: string;
  name: string;
  children: CollectedNode[];
}

/** Collects a node's subtree as the tree owns it (grouped view below the desktop), reading children in parallel. */
export async function collectSubtree(
  runtime: Runtime,
  node: RuntimeNode,
  options: SubtreeOptions,
  depth = 0,
): Promise<CollectedNode> {
  const [attributes, children] = await Promise.all([
    readSelected(node, options),
    options.maxDepth !== undefined && depth >= options.maxDepth
      ? Promise.resolve([])
      : runtime.structuralChildren(node).catch((): readonly RuntimeNode[] => []),
  ]);
  return {
    runtimeId: node.runtimeId,
    name: node.name,
    namespace: node.namespace,
    role: node.role,
    attributes: selectAttributes(attributes, options),
    children: await Promise.all(children.map((child) => collectSubtree(runtime, child, options, depth + 1))),
  };
}

export function snapshotJson(node: CollectedNode): NodeJson {
  return {
    runtimeId: node.runtimeId,
    namespace: node.namespace,
    role: node.role,
    name: node.name,
    attributes: attributesJson(node.attributes),
    children: node.children.map(snapshotJson),
  };
}

export function snapshotText(node: CollectedNode, depth = 0, lines: string[] = []): string[] {
  const label = roleLabel(node);
  lines.push(`${'  '.repeat(depth)}${node.name ? `${label} "${node.name}"` : label}`);
  for (const child of node.children) snapshotText(child, depth + 1, lines);
  return lines;
}
