import { closeSync, openSync, writeSync } from 'node:fs';
import { InspectorError } from '../../shared/model/errors.js';
import type { AttributePattern } from '../services/attribute-filter.js';
import {
  formatSnapshot,
  writeSnapshotJson,
  type AttributeSelection,
  type CollectedNode,
  type SelectOptions,
} from '../services/snapshot.js';

export type SnapshotFormat = 'xml' | 'json' | 'text';

/** Where and how `snapshot` writes what it collected. */
export interface SnapshotOutputOptions {
  format: SnapshotFormat;
  pretty: boolean;
  /** One file holding every tree. */
  output?: string;
  /** One file per tree: PREFIX-001.xml, PREFIX-002.xml ... (the extension names the format). */
  split?: string;
}

/** The attribute options of `snapshot`. */
export interface SelectionOptions {
  attrs: AttributeSelection;
  includeRuntimeId?: boolean;
  include?: readonly AttributePattern[];
  exclude?: readonly AttributePattern[];
  excludeDerived?: boolean;
}

/** The attribute selection the options ask for. */
export function snapshotSelection(options: SelectionOptions): SelectOptions {
  const filtered = options.include !== undefined || options.exclude !== undefined || options.excludeDerived === true;
  return {
    attrs: options.attrs,
    includeRuntimeId: options.includeRuntimeId === true,
    ...(filtered
      ? {
          filter: {
            include: options.include ?? [],
            exclude: options.exclude ?? [],
            excludeDerived: options.excludeDerived === true,
          },
        }
      : {}),
  };
}

const EXTENSIONS: { readonly [F in SnapshotFormat]: string } = { xml: 'xml', json: 'json', text: 'txt' };

/** The file `--split PREFIX` writes the tree at `index` (from 0) to. */
export function splitFileName(prefix: string, index: number, format: SnapshotFormat): string {
  return `${prefix}-${String(index + 1).padStart(3, '0')}.${EXTENSIONS[format]}`;
}

/** Refuses options that contradict each other, before any work. */
export function checkSnapshotOutput(options: SnapshotOutputOptions): void {
  if (options.output !== undefined && options.split !== undefined) {
    throw new InspectorError('usage', 'snapshot takes --output FILE or --split PREFIX, not both');
  }
  for (const [option, value] of [
    ['--output', options.output],
    ['--split', options.split],
  ] as const) {
    if (value === '') throw new InspectorError('usage', `${option} needs a file name, got ""`);
  }
}

/**
 * Writes the trees to stdout, to `--output FILE` or to one file per tree (`--split PREFIX`); with a file, stdout
 * gets each file's name on a line of its own.
 */
export function writeSnapshotOutput(trees: readonly CollectedNode[], options: SnapshotOutputOptions): void {
  if (options.split !== undefined) {
    if (trees.length === 0) process.stderr.write('snapshot: the XPath selected no node; --split wrote no file\n');
    const names = trees.map((tree, index) => {
      const file = splitFileName(options.split!, index, options.format);
      writeToFile(file, '--split', (write) => writeTrees([tree], options, write));
      return file;
    });
    for (const file of names) process.stdout.write(`${file}\n`);
    return;
  }
  if (options.output !== undefined) {
    writeToFile(options.output, '--output', (write) => writeTrees(trees, options, write));
    process.stdout.write(`${options.output}\n`);
    return;
  }
  writeTrees(trees, options, (chunk) => process.stdout.write(chunk));
}

function writeTrees(
  trees: readonly CollectedNode[],
  options: SnapshotOutputOptions,
  write: (chunk: string) => void,
): void {
  const layout = { pretty: options.pretty };
  if (options.format === 'json') writeSnapshotJson(trees, write, layout);
  else write(formatSnapshot(trees, options.format, layout));
}

/** Writes a file through `body`; a file that cannot be written is an error naming the option, the file and why. */
export function writeToFile(file: string, option: string, body: (write: (chunk: string) => void) => void): void {
  let fd: number;
  try {
    fd = openSync(file, 'w');
  } catch (error) {
    throw new InspectorError('invalid-input', `${option}: cannot write "${file}": ${reasonOf(error)}`);
  }
  try {
    body((chunk) => {
      const bytes = Buffer.from(chunk, 'utf8');
      for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset);
    });
  } catch (error) {
    if (error instanceof InspectorError) throw error;
    throw new InspectorError('action-failed', `${option}: writing "${file}" failed: ${reasonOf(error)}`);
  } finally {
    closeSync(fd);
  }
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reasons: Record<string, string> = {
    ENOENT: 'its directory does not exist',
    EACCES: 'permission denied',
    EISDIR: 'it is a directory',
    ENOSPC: 'no space left on the device',
    EROFS: 'the file system is read-only',
  };
  return (code && reasons[code]) ?? (error instanceof Error ? error.message : String(error));
}
