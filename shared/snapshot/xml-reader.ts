import { SaxesParser } from 'saxes';
import type { SnapshotNode } from './model.js';
import { readSnapshotTableWith, readSnapshotTableWithSaxesParser } from './read-table.js';
import { tableToNodes, type SnapshotReadOptions, type SnapshotTable } from './table.js';

/** Reads snapshot XML with saxes: the general XML reader, for what the snapshot reader leaves to it. */
export function readSnapshotTableWithSaxes(
  xml: string,
  source = 'snapshot',
  options: SnapshotReadOptions = {},
): SnapshotTable {
  return readSnapshotTableWithSaxesParser(SaxesParser, xml, source, options);
}

/** Reads snapshot XML into a SnapshotTable (see readSnapshotTableWith), saxes loaded with this module. */
export function readSnapshotTable(xml: string, source = 'snapshot', options: SnapshotReadOptions = {}): SnapshotTable {
  return readSnapshotTableWith(() => SaxesParser, xml, source, options);
}

/** Reads snapshot XML into nodes (see readSnapshotTable). */
export function readSnapshotXml(xml: string, source = 'snapshot', options: SnapshotReadOptions = {}): SnapshotNode[] {
  return tableToNodes(readSnapshotTable(xml, source, options));
}
