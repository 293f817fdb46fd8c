import { closeSync, openSync, writeSync } from 'node:fs';
import { InspectorError } from '../../shared/model/errors.js';
import type { AttributePattern } from '../services/attribute-filter.js';
import { once } from 'node:events';
import { xmlStreamWriter, type SnapshotStreamWriter } from '../../shared/snapshot/xml-writer.js';
import type { StreamPace } from '../services/snapshot-stream.js';
import {
  chunkedBytes,
  jsonStreamWriter,
  jsonTextStreamWriter,
  textStreamWriter,
  type AttributeSelection,
  type SelectOptions,
  type SnapshotEntry,
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

/** How one subtree is written into an open document (a streamed walk, or a walk of a collected tree). */
export type WriteRoot<R> = (root: R, writer: SnapshotStreamWriter<SnapshotEntry>, pace: StreamPace) => Promise<unknown>;

/** The stream writer of a format. */
export function snapshotWriter(
  format: SnapshotFormat,
  write: (text: string) => void,
  pretty: boolean,
): SnapshotStreamWriter<SnapshotEntry> {
  if (format === 'xml') return xmlStreamWriter(write, { pretty });
  if (format === 'json') return jsonTextStreamWriter(write, { pretty });
  return textStreamWriter(write);
}

/**
 * Writes a subtree of each root to stdout, to `--output FILE` or to one file per root (`--split PREFIX`) as it is
 * written (`writeRoot`), in chunks, keeping pace with stdout; with a file, stdout gets each file's name on a line of
 * its own once all are written. `checkCancelled` stops the writing (a timeout).
 */
export async function streamSnapshotOutput<R>(
  roots: readonly R[],
  options: SnapshotOutputOptions,
  writeRoot: WriteRoot<R>,
  checkCancelled: () => void = () => {},
): Promise<void> {
  const document = async (inDocument: readonly R[], target: OutputTarget) => {
    const output = chunkedBytes(target.write);
    // JSON is written as bytes straight away; the other formats as text, encoded in chunks.
    const writer =
      options.format === 'json'
        ? jsonStreamWriter(target.write, { pretty: options.pretty })
        : snapshotWriter(options.format, output.write, options.pretty);
    const pace: StreamPace = { backpressure: () => target.backpressure(), checkCancelled };
    for (const root of inDocument) await writeRoot(root, writer, pace);
    writer.end();
    output.flush();
    await target.backpressure();
  };
  if (options.split !== undefined) {
    if (roots.length === 0) process.stderr.write('snapshot: the XPath selected no node; --split wrote no file\n');
    const names: string[] = [];
    for (const [index, root] of roots.entries()) {
      const file = splitFileName(options.split, index, options.format);
      await writeToFile(file, '--split', (target) => document([root], target));
      names.push(file);
    }
    for (const file of names) process.stdout.write(`${file}\n`);
    return;
  }
  if (options.output !== undefined) {
    await writeToFile(options.output, '--output', (target) => document(roots, target));
    process.stdout.write(`${options.output}\n`);
    return;
  }
  await document(roots, stdoutTarget());
}

/** Where a document's chunks go, and when it has taken them. */
export interface OutputTarget {
  write(chunk: string | Buffer): void;
  /** Resolves once the target took the chunks written so far; undefined when it has. */
  backpressure(): Promise<void> | undefined;
}

/** stdout, keeping pace with its reader: a pipe's reader that is slower than the snapshot does not make it queue up. */
function stdoutTarget(): OutputTarget {
  let waiting: Promise<void> | undefined;
  return {
    write(chunk) {
      if (!process.stdout.write(chunk) && !waiting) {
        waiting = once(process.stdout, 'drain').then(() => {
          waiting = undefined;
        });
      }
    },
    backpressure: () => waiting,
  };
}

/** Writes a file through `body`; a file that cannot be written is an error naming the option, the file and why. */
export async function writeToFile(
  file: string,
  option: string,
  body: (target: OutputTarget) => void | Promise<void>,
): Promise<void> {
  let fd: number;
  try {
    fd = openSync(file, 'w');
  } catch (error) {
    throw new InspectorError('invalid-input', `${option}: cannot write "${file}": ${reasonOf(error)}`);
  }
  try {
    await body({
      write: (chunk) => {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset);
      },
      backpressure: () => undefined,
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
