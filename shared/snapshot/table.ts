import type { AttributeEntry } from '../model/attributes.js';
import { InspectorError, type SourcePosition } from '../model/errors.js';
import { NAMESPACES, NAMESPACE_URIS, type Namespace } from '../model/namespaces.js';
import { parseValueText } from '../model/values.js';
import type { SnapshotNode } from './model.js';

/**
 * A snapshot read into parallel arrays: node i (document order) has the namespace NAMESPACES[namespaces[i]], the
 * role names[roles[i]], its parent (-1 at the top) and the end of its subtree (nodes i+1 .. ends[i]-1 lie below it);
 * its attributes are attributeStarts[i] .. attributeStarts[i+1]-1, each with a namespace index, a name (in `names`)
 * and its raw value text (typed by parseValueText when used), which tableValue() reads: a value the document spells
 * as it is stays where it is in `text` (valueStarts[a] .. valueEnds[a]), and only one spelled with references or
 * raw whitespace (or read by saxes) is a string of its own, decoded[~valueStarts[a]]. No object per node, no string
 * per value until one is asked for.
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
  readonly valueStarts: Int32Array;
  readonly valueEnds: Int32Array;
  /** The document the values lie in. */
  readonly text: string;
  readonly decoded: readonly string[];
  /** Role and attribute names, each once; `nameIds` finds one. */
  readonly names: readonly string[];
  readonly nameIds: ReadonlyMap<string, number>;
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
const NAMESPACE_INDEX = new Map<string, number>(NAMESPACES.map((ns, index) => [NAMESPACE_URIS[ns], index]));
const CONTROL = NAMESPACES.indexOf('control');

/**
 * Builds a SnapshotTable from the events of an XML reader (the snapshot reader and saxes feed the same builder, so
 * both give the same table) and holds the format's rules: node elements and attributes in the PlatynUI namespaces,
 * no text, at most maxDepth levels, every RuntimeId once. Positions are source offsets (`at`), turned into line and
 * column only for an error. saxes calls element() and attribute() with names and values; the snapshot reader calls
 * startElement() and addAttribute() with ids from nameId() and values as places in the document.
 */
export class TableBuilder {
  private namespaces = new Uint8Array(256);
  private roles = new Int32Array(256);
  private parents = new Int32Array(256);
  private ends = new Int32Array(256);
  private attributeStarts = new Int32Array(257);
  private attributeNamespaces = new Uint8Array(1024);
  private attributeNames = new Int32Array(1024);
  private valueStarts = new Int32Array(1024);
  private valueEnds = new Int32Array(1024);
  private nodes = 0;
  private attributes = 0;
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  private readonly decoded: string[] = [];
  /** The id of `RuntimeId` among the names (-1 until it is one). */
  private runtimeIdName = -1;
  /** Open node elements (their indices); the `<snapshot>` wrapper is not among them. */
  private readonly open: number[] = [];
  private depth = 0;
  private readonly runtimeIds = new Map<string, number>();
  private sawDocumentElement = false;
  private wrapped = false;
  /** The element whose attributes come next is the wrapper (its attributes are not read). */
  private inWrapper = false;
  private current = -1;
  private currentQName = '';
  private currentAt = 0;
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

  // The URI last looked up: a reader hands over the same string for the same scope, so one comparison of references
  // mostly answers (a map lookup compares the characters of a URI sliced from the document).
  private lastUri = '';
  private lastNamespace: number | undefined;

  private namespaceOf(uri: string): number | undefined {
    if (uri !== this.lastUri) {
      this.lastUri = uri;
      this.lastNamespace = NAMESPACE_INDEX.get(uri);
    }
    return this.lastNamespace;
  }

  /** The id of a role or attribute name in the table. */
  nameId(local: string): number {
    let index = this.nameIds.get(local);
    if (index === undefined) {
      index = this.names.length;
      this.names.push(local);
      this.nameIds.set(local, index);
      if (local === 'RuntimeId') this.runtimeIdName = index;
    }
    return index;
  }

  /** A start tag at source offset `at` (its `<`); its attributes follow through attribute(). */
  element(uri: string, local: string, qname: string, at: number): void {
    this.startElement(uri, this.nameId(local), qname, at);
  }

  /** element() with the local name's id. */
  startElement(uri: string, role: number, qname: string, at: number): void {
    if (!this.sawDocumentElement) {
      this.sawDocumentElement = true;
      if (this.names[role] === 'snapshot' && (uri === '' || NAMESPACE_INDEX.get(uri) === CONTROL)) {
        this.wrapped = true;
        this.inWrapper = true;
        this.current = -1;
        return;
      }
    }
    this.inWrapper = false;
    const namespace = this.namespaceOf(uri);
    if (namespace === undefined) {
      this.fail(
        `element <${qname}> is in namespace "${uri || '(none)'}"; nodes must be in urn:platynui:control, item, app or native`,
        at,
      );
    }
    const depth = this.depth;
    if (depth >= this.maxDepth) {
      const hint = this.options.maxDepthHint ? ` (${this.options.maxDepthHint} raises the limit)` : '';
      this.fail(`nodes are nested deeper than ${this.maxDepth} levels${hint}`, at);
    }
    const index = this.nodes++;
    if (index + 1 >= this.roles.length) this.growNodes();
    this.namespaces[index] = namespace;
    this.roles[index] = role;
    this.parents[index] = depth ? this.open[depth - 1]! : -1;
    this.ends[index] = index + 1;
    this.attributeStarts[index] = this.attributes;
    this.open[depth] = index;
    this.depth = depth + 1;
    this.current = index;
    this.currentQName = qname;
    this.currentAt = at;
  }

  /** An attribute of the element just started (namespace declarations included: they are skipped here). */
  attribute(uri: string, local: string, qname: string, value: string): void {
    if (this.inWrapper || this.current < 0) return;
    if (uri === XMLNS_URI || qname === 'xmlns') return;
    this.addAttribute(uri, this.nameId(local), qname, -1, -1, value);
  }

  /**
   * attribute() with the local name's id (no namespace declaration) and the value either as `decoded` or, when that
   * is undefined, as the document's text from `start` to `end`.
   */
  addAttribute(
    uri: string,
    name: number,
    qname: string,
    start: number,
    end: number,
    decoded: string | undefined,
  ): void {
    if (this.inWrapper || this.current < 0) return;
    const ns = uri === '' ? CONTROL : this.namespaceOf(uri);
    if (ns === undefined) {
      this.fail(`attribute ${qname} on <${this.currentQName}> is in unknown namespace "${uri}"`, this.currentAt);
    }
    if (name === this.runtimeIdName && ns === CONTROL) {
      const value = decoded ?? this.document.slice(start, end);
      if (parseValueText(value).type === 'String') this.runtimeId(value);
    }
    const a = this.attributes++;
    if (a >= this.attributeNames.length) this.growAttributes();
    this.attributeNamespaces[a] = ns;
    this.attributeNames[a] = name;
    if (decoded === undefined) {
      this.valueStarts[a] = start;
      this.valueEnds[a] = end;
    } else {
      this.valueStarts[a] = ~this.decoded.length;
      this.valueEnds[a] = 0;
      this.decoded.push(decoded);
    }
  }

  private runtimeId(value: string): void {
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

  /** An end tag (or the end of an empty element). */
  close(): void {
    this.current = -1;
    if (this.depth === 0) return; // the wrapper's end
    const index = this.open[--this.depth]!;
    this.ends[index] = this.nodes;
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
    this.valueStarts = grown(this.valueStarts, new Int32Array(size));
    this.valueEnds = grown(this.valueEnds, new Int32Array(size));
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
      valueStarts: this.valueStarts.subarray(0, attributes),
      valueEnds: this.valueEnds.subarray(0, attributes),
      text: this.document,
      decoded: this.decoded,
      names: this.names,
      nameIds: this.nameIds,
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
  return table.names[table.roles[node]!]!;
}

/** The raw text of attribute `a`. */
export function tableValue(table: SnapshotTable, a: number): string {
  const start = table.valueStarts[a]!;
  return start < 0 ? table.decoded[~start]! : table.text.slice(start, table.valueEnds[a]);
}

/** The node's control attribute `name` (its index among the attributes), or -1. */
export function tableControlAttribute(table: SnapshotTable, node: number, name: string): number {
  const id = table.nameIds.get(name);
  if (id === undefined) return -1;
  const names = table.attributeNames;
  const namespaces = table.attributeNamespaces;
  for (let a = table.attributeStarts[node]!, end = table.attributeStarts[node + 1]!; a < end; a++) {
    if (names[a] === id && namespaces[a] === CONTROL) return a;
  }
  return -1;
}

/** The node's attributes with typed values, in document order. */
export function tableAttributes(table: SnapshotTable, node: number): AttributeEntry[] {
  const out: AttributeEntry[] = [];
  for (let a = table.attributeStarts[node]!; a < table.attributeStarts[node + 1]!; a++) {
    out.push({
      namespace: NAMESPACES[table.attributeNamespaces[a]!]!,
      name: table.names[table.attributeNames[a]!]!,
      value: parseValueText(tableValue(table, a)),
    });
  }
  return out;
}

/** The raw text of the node's control attribute `name`, or undefined. */
export function tableControlText(table: SnapshotTable, node: number, name: string): string | undefined {
  const a = tableControlAttribute(table, node, name);
  return a < 0 ? undefined : tableValue(table, a);
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
