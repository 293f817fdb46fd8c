import type { SaxesParser } from 'saxes';
import { InspectorError } from '../model/errors.js';
import { readSnapshotFast } from './fast-reader.js';
import { TableBuilder, type SnapshotReadOptions, type SnapshotTable } from './table.js';

/** saxes' parser class: passed in, so that a caller loads saxes only for a document the snapshot reader declines. */
export type SaxesParserClass = typeof SaxesParser;

/** Stops saxes at the first error (what the builder or saxes raised is kept in `failure`). */
class Stop extends Error {}

/** Reads snapshot XML with saxes: the general XML reader, for what the snapshot reader leaves to it. */
export function readSnapshotTableWithSaxesParser(
  Parser: SaxesParserClass,
  xml: string,
  source = 'snapshot',
  options: SnapshotReadOptions = {},
): SnapshotTable {
  const parser = new Parser({ xmlns: true, position: true });
  const builder = new TableBuilder(xml, source, options);
  let failure: InspectorError | undefined;
  let tagAt = 0;
  const guard = (work: () => void) => {
    try {
      work();
    } catch (cause) {
      failure ??= cause instanceof InspectorError ? cause : new InspectorError('invalid-input', String(cause));
      throw new Stop();
    }
  };
  parser.on('error', (cause) => {
    failure ??= new InspectorError('invalid-input', `${source}: not well-formed XML: ${cause.message}`, {
      position: { line: parser.line, column: parser.column, offset: parser.position },
    });
    throw new Stop();
  });
  parser.on('opentagstart', (tag) => {
    // saxes has read the name and one character more (two for a CR LF): the `<` is before them.
    const at = parser.position - tag.name.length - 2;
    tagAt = xml.startsWith(`<${tag.name}`, at) ? at : Math.max(0, at - 1);
  });
  parser.on('opentag', (tag) =>
    guard(() => {
      builder.element(tag.uri ?? '', tag.local ?? tag.name, tag.name, tagAt);
      for (const attribute of Object.values(tag.attributes))
        builder.attribute(attribute.uri, attribute.local, attribute.name, attribute.value);
    }),
  );
  parser.on('closetag', () => guard(() => builder.close()));
  parser.on('text', (text) => guard(() => builder.text(text, Math.max(0, parser.position - text.length - 1))));
  try {
    parser.write(xml).close();
  } catch (cause) {
    if (!(cause instanceof Stop)) {
      failure ??= cause instanceof InspectorError ? cause : new InspectorError('invalid-input', String(cause));
    }
  }
  if (failure) throw failure;
  return builder.finish();
}

/**
 * Reads snapshot XML into a SnapshotTable: the snapshot reader when the text keeps to what `snapshot` writes (and
 * what people write by hand in that form), saxes (from `loadSaxes`, called only then) for anything else (DOCTYPE,
 * CDATA, processing instructions, names outside ASCII, malformed input), so both accept and reject the same
 * documents. Errors name the file, line and column and say what was wrong: a malformed document, an element or
 * attribute outside the PlatynUI namespaces, a document element that is neither `<snapshot>` nor a node, nesting
 * deeper than the limit, a RuntimeId given twice.
 */
export function readSnapshotTableWith(
  loadSaxes: () => SaxesParserClass,
  xml: string,
  source = 'snapshot',
  options: SnapshotReadOptions = {},
): SnapshotTable {
  return readSnapshotFast(xml, source, options) ?? readSnapshotTableWithSaxesParser(loadSaxes(), xml, source, options);
}
