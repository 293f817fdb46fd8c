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
import { JsonBytes, keyBytes, type KeyBytes } from './json-bytes.js';

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

/** The bytes a byte-chunked output collects before it hands them on. */
const CHUNK_BYTES = 1 << 20;

/**
 * Collects written text and hands it on as UTF-8 in chunks of about a megabyte (flush() hands on the rest): each
 * text is encoded straight into the chunk, no long string is built and flattened before it is encoded.
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

/** An attribute's key as JSON writes it, made once per key (a snapshot writes the same few dozen keys on every node). */
interface KeyText extends KeyBytes {
  key: string;
  arrayIndex: boolean;
  /** Kept in the maps below (one object per key text); otherwise made anew for each use. */
  kept: boolean;
  /** The node whose attributes last had this key (a key twice in one node is a duplicate). */
  seenIn: number;
}
const keyTexts = new Map<string, Map<string, KeyText>>();
/** The same key text for every (namespace, name) that makes the same key, so duplicates are found by identity. */
const keysByText = new Map<string, KeyText>();
/** Counts the nodes whose attribute keys were checked for duplicates. */
let keyCheck = 0;
/**
 * plainKeys' answer, reused from node to node (its caller is done with it before the next node), with the namespace
 * and name each key was made for: consecutive nodes mostly list the same attributes in the same order.
 */
const nodeKeys: KeyText[] = [];
const keyNamespaces: Namespace[] = [];
const keyNames: string[] = [];

function keyTextOf(namespace: Namespace, name: string): KeyText {
  let byName = keyTexts.get(namespace);
  if (!byName) keyTexts.set(namespace, (byName = new Map()));
  let text = byName.get(name);
  if (!text) {
    const key = attributeKey(namespace, name);
    text = keysByText.get(key);
    // Names are a closed set in practice; an open-ended one (object attributes as names) must not grow this forever.
    const kept = text !== undefined || keysByText.size < 10_000;
    text ??= { ...keyBytes(key), key, arrayIndex: ARRAY_INDEX.test(key), kept, seenIn: 0 };
    if (kept) {
      keysByText.set(key, text);
      byName.set(name, text);
    }
  }
  return text;
}

/**
 * The keys of a node's attributes when each is written once in the entries' order; undefined when JSON.stringify
 * would write them otherwise (a key twice: the last value in the first place; index keys: first).
 */
function plainKeys(entries: readonly AttributeEntry[]): KeyText[] | undefined {
  const check = ++keyCheck;
  const keys = nodeKeys;
  let seen: Set<string> | undefined;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as AttributeEntry;
    let key = keys[i];
    if (key === undefined || keyNames[i] !== entry.name || keyNamespaces[i] !== entry.namespace) {
      key = keys[i] = keyTextOf(entry.namespace, entry.name);
      keyNames[i] = entry.name;
      keyNamespaces[i] = entry.namespace;
    }
    if (key.arrayIndex) return undefined;
    if (key.kept) {
      if (key.seenIn === check) return undefined;
      key.seenIn = check;
    } else {
      // A key not kept is a new object each time: those are compared by their text.
      seen ??= new Set();
      if (seen.has(key.key)) return undefined;
      seen.add(key.key);
    }
  }
  return keys;
}

/**
 * Writes what JSON.stringify(attributesJson(entries), null, 2) writes with each line after the first indented by
 * `indent` spaces (compact with -1: JSON.stringify(attributesJson(entries))), straight from the entries: no object of
 * the node's attributes, no text of it.
 */
function writeAttributes(out: JsonBytes, entries: readonly AttributeEntry[], indent: number): void {
  const keys = plainKeys(entries);
  if (!keys) {
    const object = attributesJson(entries);
    out.utf8(
      indent < 0 ? JSON.stringify(object) : JSON.stringify(object, null, 2).replace(/\n/g, `\n${' '.repeat(indent)}`),
    );
    return;
  }
  if (entries.length === 0) {
    out.ascii('{}');
    return;
  }
  const inner = indent < 0 ? -1 : indent + 2;
  for (let i = 0; i < entries.length; i++) {
    out.byte(i === 0 ? 0x7b : 0x2c);
    out.newline(inner);
    const key = keys[i] as KeyText;
    out.bytes(inner < 0 ? key.compact : key.pretty);
    out.value((entries[i] as AttributeEntry).value, inner);
  }
  out.newline(indent);
  out.byte(0x7d);
}

const FIELD_KEYS = {
  runtimeId: keyBytes('runtimeId'),
  namespace: keyBytes('namespace'),
  role: keyBytes('role'),
  name: keyBytes('name'),
  attributes: keyBytes('attributes'),
  children: keyBytes('children'),
};

/**
 * Writes snapshot JSON as it streams, as UTF-8 in chunks of about a megabyte (`emit`): what
 * JSON.stringify(trees.map(snapshotJson), null, 2) plus a newline writes (without `pretty`: JSON.stringify of it on
 * one line), byte for byte, nothing kept of a node once it is written. end() hands on the last chunk.
 */
export function jsonStreamWriter(
  emit: (chunk: Buffer) => void,
  layout: SnapshotLayout = {},
): SnapshotStreamWriter<SnapshotEntry> {
  const pretty = layout.pretty !== false;
  const out = new JsonBytes(emit);
  // The node lists open, outermost first (the roots' list, then each open node's children): items written so far.
  const counts: number[] = [0];
  /** A list at level L is indented 2L steps, its items 2L+1, their fields 2L+2 (a step is two spaces; -1: compact). */
  const indent = (steps: number) => (pretty ? 2 * steps : -1);
  const field = (inner: number, key: KeyBytes) => {
    out.newline(inner);
    out.bytes(pretty ? key.pretty : key.compact);
  };
  const text = (inner: number, key: KeyBytes, value: string) => {
    field(inner, key);
    out.string(value);
    out.byte(0x2c);
  };
  return {
    open(node) {
      const level = counts.length - 1;
      const inner = indent(2 * level + 2);
      out.byte(counts[level] === 0 ? 0x5b : 0x2c);
      out.newline(indent(2 * level + 1));
      counts[level]!++;
      out.byte(0x7b);
      text(inner, FIELD_KEYS.runtimeId, node.runtimeId);
      text(inner, FIELD_KEYS.namespace, node.namespace);
      text(inner, FIELD_KEYS.role, node.role);
      text(inner, FIELD_KEYS.name, node.name);
      field(inner, FIELD_KEYS.attributes);
      writeAttributes(out, node.attributes, inner);
      out.byte(0x2c);
      field(inner, FIELD_KEYS.children);
      counts.push(0);
    },
    close() {
      const level = counts.length - 1;
      if (level === 0) throw new Error('close() without an open node');
      const written = counts.pop()!;
      if (written === 0) out.ascii('[]');
      else {
        out.newline(indent(2 * level));
        out.byte(0x5d);
      }
      out.newline(indent(2 * level - 1));
      out.byte(0x7d);
    },
    end() {
      if (counts.length !== 1) throw new Error(`end() with ${counts.length - 1} nodes open`);
      if (counts[0] === 0) out.ascii('[]');
      else {
        out.newline(indent(0));
        out.byte(0x5d);
      }
      out.byte(0x0a);
      out.flush();
    },
  };
}

/** jsonStreamWriter handing on text: each chunk decoded (a chunk never ends inside a character). */
export function jsonTextStreamWriter(
  write: (text: string) => void,
  layout: SnapshotLayout = {},
): SnapshotStreamWriter<SnapshotEntry> {
  return jsonStreamWriter((chunk) => write(chunk.toString('utf8')), layout);
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
  streamTrees(trees, jsonTextStreamWriter(write, layout));
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
