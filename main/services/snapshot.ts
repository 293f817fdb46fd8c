import type { AttributeEntry } from '../../shared/model/attributes.js';
import { AttributeNames, STATE_ATTRIBUTE_NAMES } from '../../shared/model/attributes.js';
import { attributeKey } from '../../shared/model/namespaces.js';
import type { JsonValue, UiValue } from '../../shared/model/values.js';
import { formatValueText, toJsonValue } from '../../shared/model/values.js';
import type { Namespace } from '../../shared/model/namespaces.js';
import type { SnapshotNode } from '../../shared/snapshot/model.js';
import {
  streamTrees,
  writeSnapshotXml,
  type SnapshotLayout,
  type SnapshotStreamWriter,
} from '../../shared/snapshot/xml-writer.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import type { XPathItem } from '../xpath/xpath-service.js';
import { Gate } from '../../shared/gate.js';
import { matchesAny, type AttributeFilter } from './attribute-filter.js';

export type AttributeSelection = 'none' | 'default' | 'all';

export interface SelectOptions {
  attrs: AttributeSelection;
  includeRuntimeId: boolean;
  /** `snapshot --include/--exclude/--exclude-derived` on top of `attrs`. */
  filter?: AttributeFilter;
}

/**
 * The attributes a snapshot or query writes: none, the default set (Name, Id, state flags, and IsResponding where an
 * application has it), or all of them; then what the filter adds and, last, what it removes.
 */
export function selectAttributes(entries: readonly AttributeEntry[], options: SelectOptions): AttributeEntry[] {
  const filter = options.filter;
  // Everything is in the selection (RuntimeId too).
  if (!filter && options.attrs === 'all') return entries.slice();
  if (!filter) return entries.filter((entry) => inSelection(entry, options));
  return entries.filter(
    (entry) =>
      (inSelection(entry, options) || matchesAny(filter.include, entry)) &&
      !matchesAny(filter.exclude, entry) &&
      !(filter.excludeDerived && entry.derived === true),
  );
}

function inSelection(entry: AttributeEntry, options: SelectOptions): boolean {
  const control = entry.namespace === 'control';
  if (control && entry.name === AttributeNames.RuntimeId) return options.includeRuntimeId || options.attrs === 'all';
  if (options.attrs === 'all') return true;
  if (options.attrs === 'none') return false;
  return (
    control &&
    (entry.name === AttributeNames.Name ||
      entry.name === AttributeNames.Id ||
      entry.name === AttributeNames.IsResponding ||
      STATE_ATTRIBUTE_NAMES.includes(entry.name))
  );
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

/** What output says of a node besides its attributes. */
export interface NodeIdentity {
  runtimeId: string;
  namespace: Namespace;
  role: string;
  name: string;
}

/** A query result as output writes it (XPathItem is one, with RuntimeNode as the node). */
export type OutputItem<N extends NodeIdentity> =
  | { type: 'node'; node: N }
  | { type: 'attribute'; owner: N; namespace: Namespace; name: string; value: UiValue }
  | { type: 'value'; value: UiValue };

function nodeJsonOf(node: NodeIdentity, entries: readonly AttributeEntry[], options: SelectOptions): NodeJson {
  return {
    runtimeId: node.runtimeId,
    namespace: node.namespace,
    role: node.role,
    name: node.name,
    attributes: attributesJson(selectAttributes(entries, options)),
  };
}

export async function nodeJson(node: RuntimeNode, options: SelectOptions): Promise<NodeJson> {
  return nodeJsonOf(node, await readSelected(node, options), options);
}

/** An item's JSON; `entries`: the node's selected attributes (readSelected), for a node item. */
export function itemJsonOf<N extends NodeIdentity>(
  item: OutputItem<N>,
  entries: readonly AttributeEntry[],
  options: SelectOptions,
): { [key: string]: JsonValue } {
  switch (item.type) {
    case 'node':
      return { type: 'node', ...nodeJsonOf(item.node, entries, options) } as unknown as { [key: string]: JsonValue };
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

export async function itemJson(item: XPathItem, options: SelectOptions): Promise<{ [key: string]: JsonValue }> {
  return itemJsonOf(item, item.type === 'node' ? await readSelected(item.node, options) : [], options);
}

/** An item's line in `--format text`. */
export function itemText(item: OutputItem<NodeIdentity>): string {
  if (item.type === 'node') return textLine(item.node);
  if (item.type === 'attribute') {
    const key = item.namespace === 'control' ? item.name : `${item.namespace}:${item.name}`;
    return `${textLine(item.owner)} @${key}=${formatValueText(item.value)}`;
  }
  return formatValueText(item.value);
}

export function roleLabel(node: { namespace: string; role: string }): string {
  return node.namespace === 'control' ? node.role : `${node.namespace}:${node.role}`;
}

export function textLine(node: { namespace: string; role: string; name: string }): string {
  return node.name ? `${roleLabel(node)} "${node.name}"` : roleLabel(node);
}

/** The names `--attrs default` writes, in the order it writes them. */
const DEFAULT_ATTRIBUTE_NAMES = [
  AttributeNames.Name,
  AttributeNames.Id,
  ...STATE_ATTRIBUTE_NAMES,
  AttributeNames.IsResponding,
];

/**
 * Reads what the selection needs: everything for `all`, only the named attributes for `default` (a snapshot of a
 * large application must not read every attribute of every node), nothing for `none`.
 */
export async function readSelected(node: RuntimeNode, options: SelectOptions): Promise<readonly AttributeEntry[]> {
  const names = selectedNames(options);
  if (names === 'all') return node.attributes();
  const held = node.peekAttributesNamed(names);
  if (held) return held.filter((entry) => entry.namespace === 'control');
  const found = await Promise.all(names.map((name) => node.attributesNamed(name)));
  return found.flat().filter((entry) => entry.namespace === 'control');
}

/** readSelected() over a node whose attributes are at hand. */
export function readSelectedFrom(
  node: { attributes(): readonly AttributeEntry[]; attributesNamed(name: string): readonly AttributeEntry[] },
  options: SelectOptions,
): readonly AttributeEntry[] {
  const names = selectedNames(options);
  if (names === 'all') return node.attributes();
  return names.flatMap((name) => node.attributesNamed(name)).filter((entry) => entry.namespace === 'control');
}

/** The last list selectedNames() made for a selection, with what it was made from. */
const namesOfSelections = new WeakMap<SelectOptions, { key: string; names: readonly string[] | 'all' }>();

/**
 * The names readSelected() asks for one by one, or 'all' (also when include patterns may name any attribute); the
 * same list for the same selection (a walk asks for it on every node).
 */
function selectedNames(options: SelectOptions): readonly string[] | 'all' {
  const all = options.attrs === 'all' || (options.filter?.include.length ?? 0) > 0;
  if (all) return 'all';
  const key = `${options.attrs} ${options.includeRuntimeId}`;
  const made = namesOfSelections.get(options);
  if (made?.key === key) return made.names;
  const names = options.attrs === 'default' ? [...DEFAULT_ATTRIBUTE_NAMES] : [];
  if (options.includeRuntimeId) names.push(AttributeNames.RuntimeId);
  namesOfSelections.set(options, { key, names });
  return names;
}

export interface SubtreeOptions extends SelectOptions {
  maxDepth: number | undefined;
}

/** What a snapshot writes of one node (its children come as nodes of their own). */
export interface SnapshotEntry extends NodeIdentity {
  attributes: AttributeEntry[];
}

export interface CollectedNode extends SnapshotNode, SnapshotEntry {
  children: CollectedNode[];
}

/** One node read for a snapshot: what is written of it, and its children (none below the depth limit). */
export interface NodeRead {
  entry: SnapshotEntry;
  children: readonly RuntimeNode[];
}

/**
 * Reads a node for a snapshot: the selected attributes and the children as the tree owns them. What the runtime
 * holds (a region after a bulk load) is taken without a promise; only the rest is asked for. `once`: the values are
 * read for this snapshot only and not kept (RuntimeNode.attributesOnce, releaseReadValues).
 */
export function readForSnapshot(
  runtime: Runtime,
  node: RuntimeNode,
  options: SelectOptions,
  atLimit: boolean,
  once: boolean,
): NodeRead | Promise<NodeRead> {
  const names = selectedNames(options);
  const heldChildren = atLimit ? [] : runtime.peekStructuralChildren(node);
  const idKnown = node.idDefinitive || options.attrs === 'none';
  const heldAttributes = idKnown && names !== 'all' ? node.peekAttributesNamed(names) : undefined;
  const made = (attributes: readonly AttributeEntry[], children: readonly RuntimeNode[]): NodeRead => {
    if (once) node.releaseReadValues();
    if (names !== 'all') attributes = attributes.filter((entry) => entry.namespace === 'control');
    const entry: SnapshotEntry = {
      runtimeId: node.runtimeId,
      name: node.name,
      namespace: node.namespace,
      role: node.role,
      attributes: selectAttributes(attributes, options),
    };
    return { entry, children };
  };
  if (heldChildren && heldAttributes) return made(heldAttributes, heldChildren);
  return (async () => {
    if (names === 'all') node.expectAllAttributes();
    if (!node.idDefinitive && options.attrs !== 'none') await node.loadId();
    const attributes =
      (names === 'all' ? undefined : node.peekAttributesNamed(names)) ??
      (once && names === 'all' ? node.attributesOnce() : readSelected(node, options));
    const [read, children] = await Promise.all([
      attributes,
      heldChildren ?? runtime.structuralChildren(node).catch((): readonly RuntimeNode[] => []),
    ]);
    return made(read, children);
  })();
}

/**
 * How many nodes' attributes and children are read at once. Enough to keep every application's D-Bus window full
 * (a node of `--attrs all` is about seven calls, the window 192); unbounded, the reads of a 10,000-node tree were all
 * pending at once (70,000 queued calls and their promises: 633 MB).
 */
export const NODES_READ_AT_ONCE = 256;

/** Collects a node's subtree as the tree owns it (grouped view below the desktop), reading children in parallel. */
export function collectSubtree(runtime: Runtime, node: RuntimeNode, options: SubtreeOptions): Promise<CollectedNode> {
  return collectNode(runtime, node, options, new Gate(NODES_READ_AT_ONCE), 0);
}

async function collectNode(
  runtime: Runtime,
  node: RuntimeNode,
  options: SubtreeOptions,
  gate: Gate,
  depth: number,
): Promise<CollectedNode> {
  const atLimit = options.maxDepth !== undefined && depth >= options.maxDepth;
  const held = readForSnapshot(runtime, node, options, atLimit, false);
  const { entry, children } = held instanceof Promise ? await gate.run(() => held) : held;
  const collected: CollectedNode = { ...entry, children: [] };
  if (children.length > 0)
    collected.children = await Promise.all(
      children.map((child) => collectNode(runtime, child, options, gate, depth + 1)),
    );
  return collected;
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

/** The characters a chunked output collects before it hands them on. */
const CHUNK_CHARS = 1 << 20;

/** Collects written text and hands it on in chunks of about a megabyte (flush() hands on the rest). */
export function chunked(write: (chunk: string) => void): { write: (text: string) => void; flush: () => void } {
  let buffer = '';
  const flush = () => {
    if (buffer === '') return;
    const chunk = buffer;
    buffer = '';
    write(chunk);
  };
  return {
    write: (text) => {
      buffer += text;
      if (buffer.length >= CHUNK_CHARS) flush();
    },
    flush,
  };
}

/** The bytes a byte-chunked output collects before it hands them on. */
const CHUNK_BYTES = 1 << 20;

/**
 * chunked() for bytes: each written text is encoded as UTF-8 straight into a chunk of about a megabyte, handed on
 * once full (flush() hands on the rest). No long string is built and flattened before it is encoded.
 */
export function chunkedBytes(write: (chunk: Buffer) => void): { write: (text: string) => void; flush: () => void } {
  let buffer: Buffer | undefined;
  let used = 0;
  const flush = () => {
    if (!buffer || used === 0) return;
    const chunk = buffer.subarray(0, used);
    buffer = undefined;
    used = 0;
    write(chunk);
  };
  return {
    write: (text) => {
      // A UTF-16 code unit takes at most three bytes in UTF-8.
      const most = text.length * 3;
      if (buffer && used + most > buffer.length) flush();
      if (most > CHUNK_BYTES) {
        write(Buffer.from(text, 'utf8'));
        return;
      }
      buffer ??= Buffer.allocUnsafe(CHUNK_BYTES);
      used += buffer.write(text, used, 'utf8');
    },
    flush,
  };
}

/** An index into an array: a key JSON.stringify would write before all other keys of an object. */
const ARRAY_INDEX = /^(?:0|[1-9][0-9]{0,9})$/;

/**
 * What JSON.stringify(attributesJson(entries), null, 2) writes with each line after the first indented by `inner`
 * (without `pretty`: JSON.stringify(attributesJson(entries))), written straight from the entries: no object of the
 * node's attributes, no second pass over the text to indent it.
 */
function attributesText(entries: readonly AttributeEntry[], pretty: boolean, inner: string): string {
  const keys: KeyText[] = new Array<KeyText>(entries.length);
  const seen = new Set<string>();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as AttributeEntry;
    const key = keyTextOf(entry.namespace, entry.name);
    // A key written twice (the last value in the first place) or an index key (written first): as JSON.stringify.
    if (key.arrayIndex || seen.has(key.key)) {
      const object = attributesJson(entries);
      return pretty ? JSON.stringify(object, null, 2).replace(/\n/g, `\n${inner}`) : JSON.stringify(object);
    }
    seen.add(key.key);
    keys[i] = key;
  }
  const field = pretty ? `\n${inner}  ` : '';
  const colon = pretty ? ': ' : ':';
  let text = '';
  for (let i = 0; i < entries.length; i++) {
    const value = (entries[i] as AttributeEntry).value;
    let json: string | undefined;
    if (value.type === 'String' || value.type === 'Bool' || value.type === 'Integer' || value.type === 'Number') {
      json = JSON.stringify(value.value);
    } else {
      const plain = toJsonValue(value);
      json = pretty ? JSON.stringify(plain, null, 2)?.replace(/\n/g, `\n${inner}  `) : JSON.stringify(plain);
    }
    // (JSON.stringify leaves out a key whose value it cannot write.)
    if (json === undefined) continue;
    text += `${text === '' ? '' : ','}${field}${(keys[i] as KeyText).json}${colon}${json}`;
  }
  if (text === '') return '{}';
  return pretty ? `{${text}\n${inner}}` : `{${text}}`;
}

/** An attribute's key as JSON writes it, made once per name (a snapshot writes the same few dozen keys on every node). */
interface KeyText {
  key: string;
  json: string;
  arrayIndex: boolean;
}
const keyTexts = new Map<string, Map<string, KeyText>>();

function keyTextOf(namespace: Namespace, name: string): KeyText {
  let byName = keyTexts.get(namespace);
  if (!byName) keyTexts.set(namespace, (byName = new Map()));
  let text = byName.get(name);
  if (!text) {
    const key = attributeKey(namespace, name);
    text = { key, json: JSON.stringify(key), arrayIndex: ARRAY_INDEX.test(key) };
    // Names are a closed set in practice; an open-ended one (object attributes as names) must not grow this forever.
    if (byName.size < 10_000) byName.set(name, text);
  }
  return text;
}

/**
 * Writes snapshot JSON as it streams: what JSON.stringify(trees.map(snapshotJson), null, 2) plus a newline writes
 * (without `pretty`: JSON.stringify of it on one line), byte for byte, nothing kept of a node once it is written.
 */
export function jsonStreamWriter(
  write: (text: string) => void,
  layout: SnapshotLayout = {},
): SnapshotStreamWriter<SnapshotEntry> {
  const pretty = layout.pretty !== false;
  const newline = pretty ? '\n' : '';
  const step = pretty ? '  ' : '';
  const colon = pretty ? ': ' : ':';
  // The node lists open, outermost first (the roots' list, then each open node's children): items written so far.
  const counts: number[] = [0];
  const field = (inner: string, name: string, value: string) => `${newline}${inner}"${name}"${colon}${value},`;
  /** A list at level L is indented 2L steps, its items 2L+1, their fields 2L+2. */
  const indent = (steps: number) => step.repeat(steps);
  return {
    open(node) {
      const level = counts.length - 1;
      const item = indent(2 * level + 1);
      const inner = indent(2 * level + 2);
      write(counts[level] === 0 ? `[${newline}${item}` : `,${newline}${item}`);
      counts[level]!++;
      const attributes = attributesText(node.attributes, pretty, inner);
      write(
        `{${field(inner, 'runtimeId', JSON.stringify(node.runtimeId))}${field(inner, 'namespace', JSON.stringify(node.namespace))}` +
          `${field(inner, 'role', JSON.stringify(node.role))}${field(inner, 'name', JSON.stringify(node.name))}` +
          `${field(inner, 'attributes', attributes)}${newline}${inner}"children"${colon}`,
      );
      counts.push(0);
    },
    close() {
      const level = counts.length - 1;
      if (level === 0) throw new Error('close() without an open node');
      const written = counts.pop()!;
      write(written === 0 ? '[]' : `${newline}${indent(2 * level)}]`);
      write(`${newline}${indent(2 * level - 1)}}`);
    },
    end() {
      if (counts.length !== 1) throw new Error(`end() with ${counts.length - 1} nodes open`);
      write(counts[0] === 0 ? '[]\n' : `${newline}]\n`);
    },
  };
}

/** Writes `--format text` as it streams: one line a node, indented two spaces a level. */
export function textStreamWriter(write: (text: string) => void): SnapshotStreamWriter<SnapshotEntry> {
  let depth = 0;
  return {
    open(node) {
      write(`${'  '.repeat(depth)}${textLine(node)}\n`);
      depth++;
    },
    close() {
      depth--;
    },
    end() {},
  };
}

/**
 * Writes JSON.stringify(trees.map(snapshotJson), null, 2) plus a newline (without `pretty`: JSON.stringify of it on
 * one line), byte for byte, in chunks of about a megabyte straight from the collected nodes: no second tree of JSON
 * objects, no one string of the whole output.
 */
export function writeSnapshotJson(
  trees: readonly CollectedNode[],
  write: (chunk: string) => void,
  layout: SnapshotLayout = {},
): void {
  const output = chunked(write);
  streamTrees(trees, jsonStreamWriter(output.write, layout));
  output.flush();
}

/** The text `snapshot` writes for the collected trees in a format (`pretty` applies to xml and json). */
export function formatSnapshot(
  trees: readonly CollectedNode[],
  format: 'xml' | 'json' | 'text',
  layout: SnapshotLayout = {},
): string {
  if (format === 'xml') return writeSnapshotXml(trees, layout);
  if (format === 'json')
    return `${JSON.stringify(trees.map(snapshotJson), null, layout.pretty === false ? undefined : 2)}\n`;
  const parts: string[] = [];
  streamTrees(
    trees,
    textStreamWriter((text) => parts.push(text)),
  );
  return parts.join('');
}
