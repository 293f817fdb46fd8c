import type { AttributeEntry } from '../model/attributes.js';
import { InspectorError, type SourcePosition } from '../model/errors.js';
import { NAMESPACES, NAMESPACE_URIS, namespaceFromUri, type Namespace } from '../model/namespaces.js';
import { parseValueText } from '../model/values.js';
import type { SnapshotNode } from './model.js';

/**
 * A snapshot read into parallel arrays and one string table: node i (document order) has the namespace
 * NAMESPACES[namespaces[i]], the role strings[roles[i]], its parent (-1 at the top) and the end of its subtree
 * (nodes i+1 .. ends[i]-1 lie below it); its attributes are attributeStarts[i] .. attributeStarts[i+1]-1, each with
 * a namespace index, a name and the raw value text (typed by parseValueText when used). No object per node.
 */
export interface SnapshotTable {
  readonly count: number;
  readonly namespaces: Uint8Array;
  readonly roles: Int32Array;
  readonly parents: Int32Array;
  readonly ends: Int32Array;
  readonly attributeStarts: Int32Array;
  readonly attributeNamespaces: Uint8Array;
  readonly attributeNames: Int32Array;
  readonly attributeValues: Int32Array;
  readonly strings: readonly string[];
}

/** The deepest nesting of nodes a snapshot may have unless told otherwise. */
export const DEFAULT_SNAPSHOT_MAX_DEPTH = 4096;

export interface SnapshotReadOptions {
  /** Nodes nested deeper than this are an error (default DEFAULT_SNAPSHOT_MAX_DEPTH). */
  maxDepth?: number;
  /** How the user raises the limit, named in the error (e.g. `--mock-max-depth`). */
  maxDepthHint?: string;
}

const XMLNS_URI = 'http://www.w3.org/2000/xmlns/';
const NAMESPACE_INDEX = new Map<Namespace, number>(NAMESPACES.map((ns, index) => [ns, index]));
const CONTROL = NAMESPACE_INDEX.get('control')!;

/**
 * Builds a SnapshotTable from the events of an XML reader (the snapshot reader and saxes feed the same builder, so
 * both give the same table) and holds the format's rules: node elements and attributes in the PlatynUI namespaces,
 * no text, at most maxDepth levels, every RuntimeId once. Positions are source offsets (`at`), turned into line and
 * column only for an error.
 */
export class TableBuilder {
  private namespaces = new Uint8Array(256);
  private roles = new Int32Array(256);
  private parents = new Int32Array(256);
  private ends = new Int32Array(256);
  private attributeStarts = new Int32Array(257);
  private attributeNamespaces = new Uint8Array(1024);
  private attributeNames = new Int32Array(1024);
  private attributeValues = new Int32Array(1024);
  private nodes = 0;
  private attributes = 0;
  private readonly strings: string[] = [];
  private readonly stringIndex = new Map<string, number>();
  /** Open node elements (their indices); the `<snapshot>` wrapper is not among them. */
  private readonly open: number[] = [];
  private readonly runtimeIds = new Map<string, number>();
  private sawDocumentElement = false;
  private wrapped = false;
  /** The element whose attributes come next is the wrapper (its attributes are not read). */
  private inWrapper = false;
  private current = -1;
  private currentQName = '';
  private readonly maxDepth: number;

  constructor(
    private readonly document: string,
    private readonly source: string,
    private readonly options: SnapshotReadOptions = {},
  ) {
    this.maxDepth = options.maxDepth ?? DEFAULT_SNAPSHOT_MAX_DEPTH;
  }

  get hasDocumentElement(): boolean {
    return this.sawDocumentElement;
  }

  position(at: number): SourcePosition {
    return xmlPosition(this.document, at);
  }

  fail(message: string, at: number): never {
    const position = this.position(at);
    throw new InspectorError('invalid-input', `${this.source}:${position.line}:${position.column}: ${message}`, {
      position,
    });
  }

  private intern(value: string): number {
    let index = this.stringIndex.get(value);
    if (index === undefined) {
      index = this.strings.length;
      this.strings.push(value);
      this.stringIndex.set(value, index);
    }
    return index;
  }

  /** A start tag at source offset `at` (its `<`); its attributes follow through attribute(). */
  element(uri: string, local: string, qname: string, at: number): void {
    if (!this.sawDocumentElement) {
      this.sawDocumentElement = true;
      if (local === 'snapshot' && (uri === '' || namespaceFromUri(uri) === 'control')) {
        this.wrapped = true;
        this.inWrapper = true;
        this.current = -1;
        return;
      }
    }
    this.inWrapper = false;
    const namespace = namespaceFromUri(uri);
    if (!namespace) {
      this.fail(
        `element <${qname}> is in namespace "${uri || '(none)'}"; nodes must be in urn:platynui:control, item, app or native`,
        at,
      );
    }
    if (this.open.length >= this.maxDepth) {
      const hint = this.options.maxDepthHint ? ` (${this.options.maxDepthHint} raises the limit)` : '';
      this.fail(`nodes are nested deeper than ${this.maxDepth} levels${hint}`, at);
    }
    const index = this.nodes++;
    if (index + 1 >= this.roles.length) this.growNodes();
    this.namespaces[index] = NAMESPACE_INDEX.get(namespace)!;
    this.roles[index] = this.intern(local);
    this.parents[index] = this.open.length ? this.open[this.open.length - 1]! : -1;
    this.ends[index] = index + 1;
    this.attributeStarts[index] = this.attributes;
    this.open.push(index);
    this.current = index;
    this.currentQName = qname;
    this.currentAt = at;
  }

  private currentAt = 0;

  /** An attribute of the element just started (namespace declarations included: they are skipped here). */
  attribute(uri: string, local: string, qname: string, value: string): void {
    if (this.inWrapper || this.current < 0) return;
    if (uri === XMLNS_URI || qname === 'xmlns') return;
    const namespace = uri === '' ? 'control' : namespaceFromUri(uri);
    if (!namespace) {
      this.fail(`attribute ${qname} on <${this.currentQName}> is in unknown namespace "${uri}"`, this.currentAt);
    }
    const ns = NAMESPACE_INDEX.get(namespace)!;
    if (ns === CONTROL && local === 'RuntimeId' && parseValueText(value).type === 'String') {
      const first = this.runtimeIds.get(value);
      if (first !== undefined) {
        const there = this.position(first);
        this.fail(
          `RuntimeId "${value}" is given twice: first at line ${there.line}, column ${there.column}, again here`,
          this.currentAt,
        );
      }
      this.runtimeIds.set(value, this.currentAt);
    }
    const a = this.attributes++;
    if (a >= this.attributeNames.length) this.growAttributes();
    this.attributeNamespaces[a] = ns;
    this.attributeNames[a] = this.intern(local);
    // Values are mostly distinct (names, bounds): stored as they come, not looked up.
    this.attributeValues[a] = this.strings.length;
    this.strings.push(value);
  }

  /** An end tag (or the end of an empty element). */
  close(): void {
    this.current = -1;
    if (this.wrapped && this.open.length === 0) return;
    const index = this.open.pop();
    if (index !== undefined) this.ends[index] = this.nodes;
  }

  private growNodes(): void {
    const size = this.roles.length * 2;
    this.namespaces = grown(this.namespaces, new Uint8Array(size));
    this.roles = grown(this.roles, new Int32Array(size));
    this.parents = grown(this.parents, new Int32Array(size));
    this.ends = grown(this.ends, new Int32Array(size));
    this.attributeStarts = grown(this.attributeStarts, new Int32Array(size + 1));
  }

  private growAttributes(): void {
    const size = this.attributeNames.length * 2;
    this.attributeNamespaces = grown(this.attributeNamespaces, new Uint8Array(size));
    this.attributeNames = grown(this.attributeNames, new Int32Array(size));
    this.attributeValues = grown(this.attributeValues, new Int32Array(size));
  }

  /** Character data between elements: only whitespace belongs to the format. */
  text(text: string, at: number): void {
    const trimmed = text.trim();
    if (trimmed !== '') this.fail(`unexpected text "${trimmed.slice(0, 40)}"`, at);
  }

  finish(): SnapshotTable {
    if (!this.sawDocumentElement)
      throw new InspectorError('invalid-input', `${this.source}: the document has no element`);
    const count = this.nodes;
    const attributes = this.attributes;
    this.attributeStarts[count] = attributes;
    return {
      count,
      namespaces: this.namespaces.subarray(0, count),
      roles: this.roles.subarray(0, count),
      parents: this.parents.subarray(0, count),
      ends: this.ends.subarray(0, count),
      attributeStarts: this.attributeStarts.subarray(0, count + 1),
      attributeNamespaces: this.attributeNamespaces.subarray(0, attributes),
      attributeNames: this.attributeNames.subarray(0, attributes),
      attributeValues: this.attributeValues.subarray(0, attributes),
      strings: this.strings,
    };
  }
}

/** Line and column (1-based, in UTF-16 units) of an offset; CR LF, CR and LF each end a line, as in XML. */
export function xmlPosition(text: string, offset: number): SourcePosition {
  const end = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1, offset: end };
}

function grown<T extends Uint8Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

export function tableNamespace(table: SnapshotTable, node: number): Namespace {
  return NAMESPACES[table.namespaces[node]!]!;
}

export function tableNamespaceUri(table: SnapshotTable, node: number): string {
  return NAMESPACE_URIS[NAMESPACES[table.namespaces[node]!]!];
}

export function tableRole(table: SnapshotTable, node: number): string {
  return table.strings[table.roles[node]!]!;
}

/** The node's attributes with typed values, in document order. */
export function tableAttributes(table: SnapshotTable, node: number): AttributeEntry[] {
  const out: AttributeEntry[] = [];
  for (let a = table.attributeStarts[node]!; a < table.attributeStarts[node + 1]!; a++) {
    out.push({
      namespace: NAMESPACES[table.attributeNamespaces[a]!]!,
      name: table.strings[table.attributeNames[a]!]!,
      value: parseValueText(table.strings[table.attributeValues[a]!]!),
    });
  }
  return out;
}

/** The raw text of the node's control attribute `name`, or undefined. */
export function tableControlText(table: SnapshotTable, node: number, name: string): string | undefined {
  const strings = table.strings;
  for (let a = table.attributeStarts[node]!; a < table.attributeStarts[node + 1]!; a++) {
    if (table.attributeNamespaces[a] === CONTROL && strings[table.attributeNames[a]!] === name)
      return strings[table.attributeValues[a]!];
  }
  return undefined;
}

/** The children of a node, in document order (-1: the top-level nodes). */
export function tableChildren(table: SnapshotTable, node: number): number[] {
  const out: number[] = [];
  const end = node < 0 ? table.count : table.ends[node]!;
  for (let child = node + 1; child < end; child = table.ends[child]!) out.push(child);
  return out;
}

/** The table as SnapshotNode objects (built without recursion, so any depth the table holds converts). */
export function tableToNodes(table: SnapshotTable): SnapshotNode[] {
  const nodes: SnapshotNode[] = new Array<SnapshotNode>(table.count);
  const roots: SnapshotNode[] = [];
  for (let i = 0; i < table.count; i++) {
    const node: SnapshotNode = {
      namespace: tableNamespace(table, i),
      role: tableRole(table, i),
      attributes: tableAttributes(table, i),
      children: [],
    };
    nodes[i] = node;
    const parent = table.parents[i]!;
    if (parent < 0) roots.push(node);
    else nodes[parent]!.children.push(node);
  }
  return roots;
}
