import { NAMESPACE_URIS } from '../model/namespaces.js';
import { formatValueText } from '../model/values.js';
import type { SnapshotNode } from './model.js';

const OPEN_SNAPSHOT =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  `<snapshot xmlns="${NAMESPACE_URIS.control}" xmlns:item="${NAMESPACE_URIS.item}" ` +
  `xmlns:app="${NAMESPACE_URIS.app}" xmlns:native="${NAMESPACE_URIS.native}"`;

const ESCAPED = /[&<>"]/g;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function escapeAttribute(text: string): string {
  return text.replace(ESCAPED, (c) => ESCAPES[c]!);
}

function qualified(namespace: string, name: string): string {
  return namespace === 'control' ? name : `${namespace}:${name}`;
}

/** What a node's XML shows of it (its children come as nodes of their own). */
export type SnapshotHead = Pick<SnapshotNode, 'namespace' | 'role' | 'attributes'>;

function startTag(node: SnapshotHead): string {
  let tag = `<${qualified(node.namespace, node.role)}`;
  for (const attribute of node.attributes)
    tag += ` ${qualified(attribute.namespace, attribute.name)}="${escapeAttribute(formatValueText(attribute.value))}"`;
  return tag;
}

export interface SnapshotLayout {
  /** Indented, one element a line (the default); false: the elements on one line after the declaration. */
  pretty?: boolean;
}

/**
 * A snapshot written as its nodes arrive, in document order: open(node) starts a node, close() ends the last open one
 * (its children are the nodes opened in between), end() ends the document. Nothing of a node is kept after it is
 * written but what its end tag needs.
 */
export interface SnapshotStreamWriter<N> {
  open(node: N): void;
  close(): void;
  end(): void;
}

/**
 * Writes a snapshot's XML as it streams (UTF-8, two-space indentation, namespaces declared once on `<snapshot>`). A
 * start tag is finished when the next event tells whether the node has children (`/>` or `>`).
 */
export function xmlStreamWriter(
  write: (text: string) => void,
  layout: SnapshotLayout = {},
): SnapshotStreamWriter<SnapshotHead> {
  const pretty = layout.pretty !== false;
  const newline = pretty ? '\n' : '';
  const indentOf = (depth: number) => (pretty ? '  '.repeat(depth) : '');
  const open: string[] = [];
  let started = false;
  /** The last start tag still lacks its end (`/>` or `>`). */
  let tagOpen = false;
  const finishTag = () => {
    if (tagOpen) write(`>${newline}`);
    tagOpen = false;
  };
  return {
    open(node) {
      if (!started) write(`${OPEN_SNAPSHOT}>${newline}`);
      started = true;
      finishTag();
      const name = qualified(node.namespace, node.role);
      write(`${indentOf(open.length + 1)}${startTag(node)}`);
      open.push(name);
      tagOpen = true;
    },
    close() {
      const name = open.pop();
      if (name === undefined) throw new Error('close() without an open node');
      if (tagOpen) write(`/>${newline}`);
      else write(`${indentOf(open.length + 1)}</${name}>${newline}`);
      tagOpen = false;
    },
    end() {
      if (open.length > 0) throw new Error(`end() with ${open.length} nodes open`);
      write(started ? '</snapshot>\n' : `${OPEN_SNAPSHOT}/>\n`);
    },
  };
}

/** Feeds trees to a stream writer in document order and ends the document. */
export function streamTrees<N extends { readonly children: readonly N[] }>(
  nodes: readonly N[],
  writer: SnapshotStreamWriter<NoInfer<N>>,
): void {
  streamNodes(nodes, writer);
  writer.end();
}

/**
 * Feeds trees to a stream writer in document order, without recursion (any depth a snapshot may have); the document
 * stays open for more.
 */
export function streamNodes<N extends { readonly children: readonly N[] }>(
  nodes: readonly N[],
  writer: SnapshotStreamWriter<NoInfer<N>>,
): void {
  // Each entry: a node list and the next index in it; the open nodes are the entries below the top.
  const lists: (readonly N[])[] = [nodes];
  const next: number[] = [0];
  while (lists.length > 0) {
    const top = lists.length - 1;
    const list = lists[top]!;
    const i = next[top]!;
    if (i >= list.length) {
      lists.pop();
      next.pop();
      if (lists.length > 0) writer.close();
      continue;
    }
    next[top] = i + 1;
    const node = list[i]!;
    writer.open(node);
    lists.push(node.children);
    next.push(0);
  }
}

/**
 * Writes nodes as snapshot XML, without recursion, so any depth a snapshot may have writes. The pretty bytes are
 * those the format has always had (a test holds them to xmlbuilder2's pretty printer, which wrote them before).
 */
export function writeSnapshotXml(nodes: readonly SnapshotNode[], layout: SnapshotLayout = {}): string {
  const parts: string[] = [];
  streamTrees(
    nodes,
    xmlStreamWriter((text) => parts.push(text), layout),
  );
  return parts.join('');
}
