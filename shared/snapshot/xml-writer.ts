import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { NAMESPACE_URIS } from '../model/namespaces.js';
import { formatValueText } from '../model/values.js';
import type { SnapshotNode } from './model.js';

function appendNode(parent: XMLBuilder, node: SnapshotNode): void {
  const qualified = node.namespace === 'control' ? node.role : `${node.namespace}:${node.role}`;
  const element = parent.ele(NAMESPACE_URIS[node.namespace], qualified);
  for (const attribute of node.attributes) {
    const text = formatValueText(attribute.value);
    if (attribute.namespace === 'control') element.att(attribute.name, text);
    else element.att(NAMESPACE_URIS[attribute.namespace], `${attribute.namespace}:${attribute.name}`, text);
  }
  for (const child of node.children) appendNode(element, child);
}

/** Writes nodes as snapshot XML (UTF-8, two-space indentation, namespaces declared once on `<snapshot>`). */
export function writeSnapshotXml(nodes: readonly SnapshotNode[]): string {
  const document = create({ version: '1.0', encoding: 'UTF-8' });
  const root = document
    .ele(NAMESPACE_URIS.control, 'snapshot')
    .att('http://www.w3.org/2000/xmlns/', 'xmlns:item', NAMESPACE_URIS.item)
    .att('http://www.w3.org/2000/xmlns/', 'xmlns:app', NAMESPACE_URIS.app)
    .att('http://www.w3.org/2000/xmlns/', 'xmlns:native', NAMESPACE_URIS.native);
  for (const node of nodes) appendNode(root, node);
  return `${document.end({ prettyPrint: true, indent: '  ' })}\n`;
}
