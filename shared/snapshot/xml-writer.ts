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

function startTag(node: SnapshotNode): string {
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
 * Writes nodes as snapshot XML (UTF-8, two-space indentation, namespaces declared once on `<snapshot>`), without
 * recursion, so any depth a snapshot may have writes. The pretty bytes are those the format has always had (a test
 * holds them to xmlbuilder2's pretty printer, which wrote them before).
 */
export function writeSnapshotXml(nodes: readonly SnapshotNode[], layout: SnapshotLayout = {}): string {
  const pretty = layout.pretty !== false;
  const newline = pretty ? '\n' : '';
  const indentOf = (depth: number) => (pretty ? '  '.repeat(depth) : '');
  if (nodes.length === 0) return `${OPEN_SNAPSHOT}/>\n`;
  const parts: string[] = [`${OPEN_SNAPSHOT}>${newline}`];
  // Each entry: a node list and the next index in it; the depth is the stack's length.
  const lists: (readonly SnapshotNode[])[] = [nodes];
  const next: number[] = [0];
  const owners: SnapshotNode[] = [];
  while (lists.length > 0) {
    const top = lists.length - 1;
    const list = lists[top]!;
    const i = next[top]!;
    const indent = indentOf(lists.length);
    if (i >= list.length) {
      lists.pop();
      next.pop();
      const owner = owners.pop();
      if (owner) parts.push(`${indentOf(lists.length)}</${qualified(owner.namespace, owner.role)}>${newline}`);
      continue;
    }
    next[top] = i + 1;
    const node = list[i]!;
    if (node.children.length === 0) {
      parts.push(`${indent}${startTag(node)}/>${newline}`);
    } else {
      parts.push(`${indent}${startTag(node)}>${newline}`);
      lists.push(node.children);
      next.push(0);
      owners.push(node);
    }
  }
  parts.push('</snapshot>\n');
  return parts.join('');
}
