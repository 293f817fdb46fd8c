import type { AttributeEntry } from '../../../shared/model/attributes.js';
import { AttributeNames, SECRET_ATTRIBUTE_NAMES } from '../../../shared/model/attributes.js';
import { InspectorError } from '../../../shared/model/errors.js';
import { NAMESPACE_URIS, NAMESPACES, type Namespace } from '../../../shared/model/namespaces.js';
import { formatValueText, parseValueText } from '../../../shared/model/values.js';
import {
  tableAttributes,
  tableChildren,
  tableControlText,
  tableNamespace,
  tableRole,
  tableValue,
  type SnapshotTable,
} from '../../../shared/snapshot/table.js';
import type { ElementList, XdmAttribute } from '../../../shared/xpath/tree.js';
import type { FileTree } from '../../core/file-tree.js';
import { attributesNamedFrom, composeAttributes, needsPatterns, type NodeFacts } from '../../core/node-attributes.js';
import { MOCK_DESCRIPTOR, MockRuntimeIds, mockNodeName, readMockAttributes, type MockTable } from './mock-provider.js';

/** The document node (the desktop) of a MockFileTree; table nodes are their indices. */
export const DOCUMENT = -1;

/** Names whose answer is not simply the file's attribute of that name (the runtime adds or hides them). */
const RUNTIME_NAMES: ReadonlySet<string> = new Set([
  AttributeNames.Name,
  AttributeNames.Id,
  AttributeNames.RuntimeId,
  AttributeNames.Technology,
  AttributeNames.SupportedPatterns,
  ...SECRET_ATTRIBUTE_NAMES,
]);
const ALIAS = /\.(X|Y|Width|Height)$/;

interface NodeData {
  facts: NodeFacts;
  values: AttributeEntry[];
  patterns: string[];
}

const CHECK_EVERY = 1024;
const CONTROL = NAMESPACES.indexOf('control');

/**
 * A mock file as the XPath fast path sees it through the runtime (MockProvider, Runtime, RuntimeNode and the
 * worker's mirror), read directly from the file's table: the same nodes, ids, names, attributes and the same
 * shape (the document lists the applications, then their windows, then the other top-level nodes; an application
 * lists its windows, whose parent is the document). A differential test holds both to the same answers. Attribute
 * lists are made per node on first use; a query that only tests names and roles makes none.
 */
export class MockFileTree implements FileTree {
  readonly root = DOCUMENT;
  private ids: string[] | undefined;
  private readonly parents: Int32Array;
  private readonly childLists: PerNode<number[]>;
  private readonly documentChildren: number[];
  /** Top-level applications and the other top-level nodes, as the desktop owns them (the snapshot's shape). */
  readonly structuralRoots: number[];
  private readonly data: PerNode<NodeData>;
  /** Every attribute of a node, once asked for (then answers by name come from it, as the runtime's do). */
  private readonly full: PerNode<AttributeEntry[]>;
  private readonly fullXdm: PerNode<XdmAttribute[]>;
  private readonly names: PerNode<string>;
  /** Document order where it is not the table's (top-level applications come before their windows), else undefined. */
  private readonly positions: Int32Array | undefined;
  /** The elements of each expanded name in document order, by `{uri}local`, made on first use. */
  private readonly groups = new Map<string, number[]>();
  private untilCheck = CHECK_EVERY;
  /** performance.now() after which checkCancelled() throws a timeout. */
  deadline = Infinity;
  timeoutMs = 0;

  constructor(
    readonly mock: MockTable,
    readonly technology: string = MOCK_DESCRIPTOR.technology,
  ) {
    const { table, roots, desktop } = mock;
    const count = table.count;
    this.parents = new Int32Array(count);
    this.childLists = new PerNode(count);
    this.data = new PerNode(count);
    this.full = new PerNode(count);
    this.fullXdm = new PerNode(count);
    this.names = new PerNode(count);
    const first = desktop === undefined ? 0 : desktop + 1;
    const applications = roots.filter((root) => tableNamespace(table, root) === 'app');
    const others = roots.filter((root) => tableNamespace(table, root) !== 'app');
    const windows = applications.flatMap((application) => tableChildren(table, application));
    this.parents.set(table.parents.subarray(first), first);
    for (const root of roots) this.parents[root] = DOCUMENT;
    for (const window of windows) this.parents[window] = DOCUMENT;
    this.documentChildren = [...applications, ...windows, ...others];
    this.structuralRoots = [...applications, ...others];
    this.positions = applications.length ? documentOrder(table, this.documentChildren, applications) : undefined;
  }

  /**
   * The runtime ids, made on first use: the file's (when a string), else generated in document order as
   * MockProvider generates them.
   */
  get runtimeIds(): readonly string[] {
    if (this.ids) return this.ids;
    const { table, desktop } = this.mock;
    const count = table.count;
    const first = desktop === undefined ? 0 : desktop + 1;
    const ids = new Array<string>(count);
    const given = new Set<string>();
    const fileIds: (string | undefined)[] = new Array<string | undefined>(count);
    for (let i = first; i < count; i++) {
      const text = tableControlText(table, i, AttributeNames.RuntimeId);
      if (text !== undefined && parseValueText(text).type === 'String') {
        fileIds[i] = text;
        given.add(text);
      }
    }
    const generated = new MockRuntimeIds(given);
    for (let i = first; i < count; i++) ids[i] = fileIds[i] ?? generated.next(tableRole(table, i));
    this.ids = ids;
    return ids;
  }

  /** Node count below the document (what the mock provider would have made). */
  get size(): number {
    return this.mock.table.count - (this.mock.desktop === undefined ? 0 : 1);
  }

  isDocument(node: number): boolean {
    return node === DOCUMENT;
  }
  namespace(node: number): Namespace {
    return node === DOCUMENT ? 'control' : tableNamespace(this.mock.table, node);
  }
  namespaceUri(node: number): string {
    return NAMESPACE_URIS[this.namespace(node)];
  }
  localName(node: number): string {
    return node === DOCUMENT ? 'Desktop' : tableRole(this.mock.table, node);
  }
  prefix(node: number): string {
    const ns = this.namespace(node);
    return ns === 'control' ? '' : ns;
  }
  parent(node: number): number | null {
    return node === DOCUMENT ? null : this.parents[node]!;
  }
  children(node: number): readonly number[] {
    if (node === DOCUMENT) return this.documentChildren;
    let list = this.childLists.get(node);
    if (!list) {
      list = tableChildren(this.mock.table, node);
      this.childLists.set(node, list);
    }
    return list;
  }
  /** Children as the tree owns them (the snapshot's shape): the document lists applications and other nodes. */
  structuralChildren(node: number): readonly number[] {
    return node === DOCUMENT ? this.structuralRoots : this.children(node);
  }

  name(node: number): string {
    let name = this.names.get(node);
    if (name === undefined) {
      const text = tableControlText(this.mock.table, node, AttributeNames.Name);
      name = text !== undefined && parseValueText(text).type === 'String' ? text : '';
      this.names.set(node, name);
    }
    return name;
  }

  id(node: number): string | undefined {
    const text = tableControlText(this.mock.table, node, AttributeNames.Id);
    return (text !== undefined && parseValueText(text).type === 'String' && text) || undefined;
  }

  private nodeData(node: number): NodeData {
    let data = this.data.get(node);
    if (!data) {
      const read = readMockAttributes(tableAttributes(this.mock.table, node));
      data = {
        facts: {
          runtimeId: this.runtimeIds[node]!,
          name: mockNodeName(read.values),
          id: read.id,
          technology: this.technology,
          isSecure: read.isSecure,
        },
        values: read.values,
        patterns: read.patterns,
      };
      this.data.set(node, data);
    }
    return data;
  }

  /** Every attribute, as RuntimeNode.attributes() gives it. */
  entries(node: number): readonly AttributeEntry[] {
    let entries = this.full.get(node);
    if (!entries) {
      const { facts, values, patterns } = this.nodeData(node);
      entries = composeAttributes(values, facts, needsPatterns(values) ? patterns : []);
      this.full.set(node, entries);
    }
    return entries;
  }

  /** The attributes with this local name, as RuntimeNode.attributesNamed() gives them. */
  entriesNamed(node: number, localName: string): readonly AttributeEntry[] {
    const full = this.full.get(node);
    if (full) return full.filter((entry) => entry.name === localName);
    if (!RUNTIME_NAMES.has(localName) && !ALIAS.test(localName)) {
      // The file's attributes of that name are the answer: nothing the runtime adds or hides has it.
      const table = this.mock.table;
      const out: AttributeEntry[] = [];
      const id = table.nameIds.get(localName);
      if (id === undefined) return out;
      for (let a = table.attributeStarts[node]!; a < table.attributeStarts[node + 1]!; a++) {
        if (table.attributeNames[a] !== id) continue;
        out.push({
          namespace: NAMESPACES[table.attributeNamespaces[a]!]!,
          name: localName,
          value: parseValueText(tableValue(table, a)),
        });
      }
      return out;
    }
    const { facts, values, patterns } = this.nodeData(node);
    return attributesNamedFrom(localName, values, facts, () => patterns);
  }

  attributes(node: number): readonly XdmAttribute[] {
    if (node === DOCUMENT) return [];
    let list = this.fullXdm.get(node);
    if (!list) {
      list = this.entries(node).map(toXdm);
      this.fullXdm.set(node, list);
    }
    return list;
  }

  attribute(node: number, namespaceUri: string | null, localName: string): string | undefined {
    if (node === DOCUMENT) return undefined;
    if (namespaceUri === null) {
      // What the worker's mirror answers from the node itself.
      if (localName === AttributeNames.Name) return this.name(node);
      if (localName === AttributeNames.RuntimeId) return this.runtimeIds[node];
      if (localName === AttributeNames.Id) return this.id(node);
    }
    const full = this.fullXdm.get(node);
    if (full) {
      for (const attribute of full)
        if (attribute.localName === localName && attribute.namespaceUri === namespaceUri) return attribute.value;
      return undefined;
    }
    const want = namespaceUri === null ? 'control' : undefined;
    for (const entry of this.entriesNamed(node, localName)) {
      if (want ? entry.namespace === want : NAMESPACE_URIS[entry.namespace] === namespaceUri)
        return formatValueText(entry.value);
    }
    return undefined;
  }

  documentPosition(node: number): number {
    if (node === DOCUMENT) return -1;
    return this.positions ? this.positions[node]! : node;
  }

  /** XdmTree.elementsNamed: every such element of the file is here, so the index always answers. */
  elementsNamed(namespaceUri: string, localName: string, name?: string): ElementList<number> {
    const key = `{${namespaceUri}}${localName}`;
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = this.elementsOf(namespaceUri, localName)));
    return name === undefined ? group : new NamedElements(this, group, name);
  }

  private elementsOf(namespaceUri: string, localName: string): number[] {
    const { table, desktop } = this.mock;
    const ns = NAMESPACES.findIndex((namespace) => NAMESPACE_URIS[namespace] === namespaceUri);
    const role = table.nameIds.get(localName);
    const found: number[] = [];
    if (ns < 0 || role === undefined) return found;
    const { roles, namespaces } = table;
    for (let node = desktop === undefined ? 0 : desktop + 1; node < table.count; node++) {
      if (roles[node] === role && namespaces[node] === ns) found.push(node);
    }
    const positions = this.positions;
    if (positions) found.sort((a, b) => positions[a]! - positions[b]!);
    return found;
  }

  /**
   * The index in `group` of the first node from `from` on whose attribute(node, null, 'Name') is `name` (a text that
   * parses as a string: see NamedElements), or group.length.
   */
  nextNamed(group: readonly number[], from: number, name: string): number {
    const table = this.mock.table;
    const id = table.nameIds.get(AttributeNames.Name);
    if (id === undefined) return group.length;
    const { attributeStarts, attributeNames, attributeNamespaces, valueStarts, valueEnds, text } = table;
    const length = name.length;
    const first = name.charCodeAt(0);
    for (let i = from; i < group.length; i++) {
      const node = group[i]!;
      for (let a = attributeStarts[node]!, end = attributeStarts[node + 1]!; a < end; a++) {
        if (attributeNames[a] !== id || attributeNamespaces[a] !== CONTROL) continue;
        const start = valueStarts[a]!;
        if (start >= 0) {
          if (valueEnds[a]! - start === length && text.charCodeAt(start) === first && text.startsWith(name, start))
            return i;
        } else if (table.decoded[~start] === name) return i;
        break;
      }
    }
    return group.length;
  }

  checkCancelled(): void {
    if (--this.untilCheck > 0) return;
    this.untilCheck = CHECK_EVERY;
    if (performance.now() > this.deadline) {
      throw new InspectorError('timeout', `the evaluation did not finish within ${this.timeoutMs} ms`);
    }
  }
}

/** A value per node, made on first use; the array for all nodes only once one is set. */
class PerNode<T> {
  private values: (T | undefined)[] | undefined;
  constructor(private readonly count: number) {}
  get(node: number): T | undefined {
    return this.values?.[node];
  }
  set(node: number, value: T): void {
    (this.values ??= new Array<T | undefined>(this.count))[node] = value;
  }
}

/**
 * The document order of a file with top-level applications: each application alone (its children, the windows, are
 * the document's too), then the windows' and the other top-level nodes' subtrees, each in table order.
 */
function documentOrder(table: SnapshotTable, documentChildren: readonly number[], applications: number[]): Int32Array {
  const positions = new Int32Array(table.count);
  const alone = new Set(applications);
  let next = 0;
  for (const child of documentChildren) {
    const end = alone.has(child) ? child + 1 : table.ends[child]!;
    for (let node = child; node < end; node++) positions[node] = next++;
  }
  return positions;
}

/**
 * The elements of a group whose Name is `name`, found as far as they are asked for. A name whose text is not a
 * string's (`true`, `12`) is no node's Name: attribute(node, null, 'Name') answers '' for such a text. Only '' is
 * then looked up node by node.
 */
class NamedElements implements ElementList<number> {
  private readonly found: number[] = [];
  private scanned = 0;

  constructor(
    private readonly tree: MockFileTree,
    private readonly group: readonly number[],
    private readonly name: string,
  ) {
    if (name !== '' && parseValueText(name).type !== 'String') this.scanned = group.length;
  }

  at(index: number): number | undefined {
    const { found, group, tree, name } = this;
    while (found.length <= index && this.scanned < group.length) {
      if (name === '') {
        const node = group[this.scanned++]!;
        if (tree.name(node) === '') found.push(node);
        continue;
      }
      const next = tree.nextNamed(group, this.scanned, name);
      if (next < group.length) found.push(group[next]!);
      this.scanned = next + 1;
    }
    return found[index];
  }
}

function toXdm(entry: AttributeEntry): XdmAttribute {
  return {
    namespaceUri: entry.namespace === 'control' ? null : NAMESPACE_URIS[entry.namespace],
    localName: entry.name,
    value: formatValueText(entry.value),
  };
}
