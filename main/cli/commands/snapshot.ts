import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import { selectRoots } from '../../services/select-nodes.js';
import { topLevelSelection } from '../../../shared/xpath/fast/reach.js';
import { addRuntimeOptions, parseAttrs, parseTimeout, measureStats, parseNonNegativeInteger } from '../options.js';
import type { AttributeSelection } from '../../services/snapshot.js';
import { streamSubtree } from '../../services/snapshot-stream.js';
import { parseAttributePattern, type AttributePattern } from '../../services/attribute-filter.js';
import { openCommandRuntime, type RuntimeCliOptions } from '../command-runtime.js';
import {
  checkSnapshotOutput,
  snapshotSelection,
  streamSnapshotOutput,
  type SnapshotFormat,
} from '../snapshot-output.js';

export interface SnapshotOptions extends RuntimeCliOptions {
  format: SnapshotFormat;
  maxDepth?: number;
  attrs: AttributeSelection;
  includeRuntimeId?: boolean;
  include?: AttributePattern[];
  exclude?: AttributePattern[];
  excludeDerived?: boolean;
  pretty: boolean;
  output?: string;
  split?: string;
  stats?: boolean;
  timeout?: number;
}

const collectPatterns =
  (option: string) =>
  (value: string, previous: AttributePattern[] | undefined): AttributePattern[] => [
    ...(previous ?? []),
    parseAttributePattern(option, value),
  ];

export function registerSnapshot(program: Command): void {
  addRuntimeOptions(
    program
      .command('snapshot')
      .description('write the subtree of each node the XPath selects (default: the whole desktop)')
      .argument('[xpath]', 'XPath selecting the subtree roots', '/')
      .option('--format <format>', 'xml, json or text', parseFormat, 'xml')
      .option('--max-depth <n>', 'levels below each root to include', parseNonNegativeInteger('--max-depth'))
      .option(
        '--attrs <set>',
        'none, default (Name, Id, state flags) or all (every attribute and RuntimeId)',
        parseAttrs,
        'default',
      )
      .option('--include-runtime-id', 'write RuntimeId on every node')
      .option(
        '--include <NS:NAME...>',
        'also write the attributes matching NS:NAME (* matches any characters: control:Bounds*, native:*); repeatable',
        collectPatterns('--include'),
      )
      .option(
        '--exclude <NS:NAME...>',
        'leave out the attributes matching NS:NAME, after --attrs and --include; repeatable',
        collectPatterns('--exclude'),
      )
      .option('--exclude-derived', 'leave out the derived aliases (Bounds.X/Y/Width/Height, ActivationPoint.X/Y)')
      .option('--pretty', 'xml and json: indented, one element or field a line (the default)')
      .option('--no-pretty', 'xml and json: compact, without indentation or line breaks')
      .option('--output <file>', 'write to FILE instead of stdout (stdout then names the file)')
      .option('--split <prefix>', 'one file per selected root: PREFIX-001.xml, PREFIX-002.xml ... (.json, .txt)')
      .option('--timeout <ms>', 'give up after this many milliseconds (exit 4)', parseTimeout)
      .option('--stats', 'write {"evalMs","nodesFetched","results"} as one JSON line to stderr'),
  ).action(async (xpath: string, options: SnapshotOptions) => {
    checkSnapshotOutput(options);
    if (options.mockFile) {
      const { snapshotMockFile } = await import('../mock-file.js');
      if (await snapshotMockFile(xpath, options)) return;
    }
    // A snapshot of applications by name, or of the desktop, evaluates no XPath: no worker is started. (No prefetch:
    // the walk tells the provider first which attributes it will read, and a bulk load reads them with the tree.)
    const opened = await openCommandRuntime(options, { xpath: !topLevelSelection(xpath) });
    try {
      const stats = measureStats(opened.runtime);
      const roots = await selectRoots(
        opened.runtime,
        () => opened.xpath,
        xpath,
        options.timeout,
        `snapshot needs an XPath that selects nodes; "${xpath}" selected other items`,
      );
      const subtree = { ...snapshotSelection(options), maxDepth: options.maxDepth };
      // Each node is written as it is read (nothing of the tree is kept); a timeout stops the writing.
      const deadline = options.timeout === undefined ? Infinity : performance.now() + options.timeout;
      const timedOut = () => new InspectorError('timeout', `the snapshot did not finish within ${options.timeout} ms`);
      const checkCancelled = () => {
        if (performance.now() > deadline) throw timedOut();
      };
      const work = streamSnapshotOutput(
        roots,
        options,
        (root, writer, pace) => streamSubtree(opened.runtime, root, subtree, writer, pace),
        checkCancelled,
      );
      if (options.timeout !== undefined) await withTimeout(work, options.timeout, timedOut);
      else await work;
      if (options.stats) {
        stats.write(roots.length);
      }
    } finally {
      await opened.close();
    }
  });
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number, timedOut: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(timedOut()), timeoutMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function parseFormat(value: string): SnapshotFormat {
  if (value !== 'xml' && value !== 'json' && value !== 'text') {
    throw new InspectorError('usage', `--format must be xml, json or text, got "${value}"`);
  }
  return value;
}
