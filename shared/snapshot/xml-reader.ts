import { SaxesParser } from 'saxes';
import type { AttributeEntry } from '../model/attributes.js';
import { InspectorError, type SourcePosition } from '../model/errors.js';
import { namespaceFromUri } from '../model/namespaces.js';
import { parseValueText } from '../model/values.js';
import type { SnapshotNode } from './model.js';

const XMLNS_URI = 'http://www.w3.org/2000/xmlns/';

function fail(message: string, parser: SaxesParser<{ xmlns: true }>, source: string): never {
  const position: SourcePosition = { line: parser.line, column: parser.column, offset: parser.position };
  throw new InspectorError('invalid-input', `${source}:${parser.line}:${parser.column}: ${message}`, { position });
}

/**
 * Reads snapshot XML into nodes. Errors name the file, line and column and say what was wrong: a malformed document,
 * an element or attribute outside the PlatynUI namespaces, or a document element that is neither `<snapshot>` nor a
 * node.
 */
export function readSnapshotXml(xml: string, source = 'snapshot'): SnapshotNode[] {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const roots: SnapshotNode[] = [];
  const stack: SnapshotNode[] = [];
  let sawDocumentElement = false;
  let wrapped = false;
  let error: InspectorError | undefined;

  parser.on('error', (cause) => {
    error ??= new InspectorError('invalid-input', `${source}: not well-formed XML: ${cause.message}`, {
      position: { line: parser.line, column: parser.column, offset: parser.position },
    });
  });
  parser.on('opentag', (tag) => {
    if (error) return;
    try {
      if (!sawDocumentElement) {
        sawDocumentElement = true;
        if (tag.local === 'snapshot' && (tag.uri === '' || namespaceFromUri(tag.uri) === 'control')) {
          wrapped = true;
          return;
        }
      }
      const namespace = namespaceFromUri(tag.uri);
      if (!namespace) {
        fail(
          `element <${tag.name}> is in namespace "${tag.uri || '(none)'}"; nodes must be in urn:platynui:control, item, app or native`,
          parser,
          source,
        );
      }
      const attributes: AttributeEntry[] = [];
      for (const attribute of Object.values(tag.attributes)) {
        if (attribute.uri === XMLNS_URI || attribute.name === 'xmlns') continue;
        const attributeNamespace = attribute.uri === '' ? 'control' : namespaceFromUri(attribute.uri);
        if (!attributeNamespace) {
          fail(
            `attribute ${attribute.name} on <${tag.name}> is in unknown namespace "${attribute.uri}"`,
            parser,
            source,
          );
        }
        attributes.push({
          namespace: attributeNamespace,
          name: attribute.local,
          value: parseValueText(attribute.value),
        });
      }
      const node: SnapshotNode = { namespace, role: tag.local, attributes, children: [] };
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(node);
      else roots.push(node);
      stack.push(node);
    } catch (cause) {
      error ??= cause instanceof InspectorError ? cause : new InspectorError('invalid-input', String(cause));
    }
  });
  parser.on('closetag', (tag) => {
    if (error) return;
    if (wrapped && stack.length === 0 && tag.local === 'snapshot') return;
    stack.pop();
  });
  parser.on('text', (text) => {
    if (!error && text.trim() !== '') fail(`unexpected text "${text.trim().slice(0, 40)}"`, parser, source);
  });

  try {
    parser.write(xml).close();
  } catch (cause) {
    error ??= cause instanceof InspectorError ? cause : new InspectorError('invalid-input', String(cause));
  }
  if (error) throw error;
  if (!sawDocumentElement) throw new InspectorError('invalid-input', `${source}: the document has no element`);
  return roots;
}
