import { readFileSync } from 'node:fs';
import type { Params, Result } from '../../shared/api/schema.js';
import { InspectorError } from '../../shared/model/errors.js';
import { diffSnapshots, type SnapshotDiff, type SnapshotDiffOptions } from '../../shared/snapshot/diff.js';
import { decodeSnapshotBytes } from '../../shared/snapshot/utf8.js';
import { readSnapshotXml } from '../../shared/snapshot/xml-reader.js';

/** A snapshot's text and the name errors give it (its file name). */
export interface SnapshotText {
  xml: string;
  source: string;
}

const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'it is a directory',
};

/** Reads a snapshot file as text; a missing file or one that is not UTF-8 is `invalid-input` naming it. */
export function readSnapshotFile(file: string): SnapshotText {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason = READ_FAILURES[code] ?? (error as Error).message;
    throw new InspectorError('invalid-input', `cannot read ${file}: ${reason}`);
  }
  return { xml: decodeSnapshotBytes(bytes, file), source: file };
}

/**
 * Compares two snapshots (the CLI's `diff` and the UI's comparison): nodes added, removed and changed with their
 * attributes. A document that is not a snapshot is `invalid-input` naming its source, line and column.
 */
export function diffSnapshotTexts(
  before: SnapshotText,
  after: SnapshotText,
  options: SnapshotDiffOptions = {},
): SnapshotDiff {
  return diffSnapshots(readSnapshotXml(before.xml, before.source), readSnapshotXml(after.xml, after.source), options);
}

/** A comparison the protocol answers lists at most this many nodes (the counts stay whole). */
const SNAPSHOT_DIFF_ENTRIES = 5000;

/** The protocol's `snapshot.diff`: two snapshot texts compared, each named as the client named it. */
export function snapshotDiffRequest({ before, after }: Params<'snapshot.diff'>): Result<'snapshot.diff'> {
  return diffSnapshotTexts(
    { xml: before.xml, source: before.name },
    { xml: after.xml, source: after.name },
    { maxEntries: SNAPSHOT_DIFF_ENTRIES },
  );
}
