import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import { selectNodes } from '../../services/select-nodes.js';
import { addRuntimeOptions, parseAttrs, parseTimeout, measureStats, parseNonNegativeInteger } from '../options.js';
import { collectSubtree, formatSnapshot, writeSnapshotJson, type AttributeSelection } from '../../services/snapshot.js';
import { openCommandRuntime, type RuntimeCliOptions } from '../command-runtime.js';

export interface SnapshotOptions extends RuntimeCliOptions {
  format: 'xml' | 'json' | 'text';
  maxDepth?: number;
  attrs: AttributeSelection;
  includeRuntimeId?: boolean;
  stats?: boolean;
  timeout?: number;
}

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
      .option('--timeout <ms>', 'give up after this many milliseconds (exit 4)', parseTimeout)
      .option('--stats', 'write {"evalMs","nodesFetched","results"} as one JSON line to stderr'),
  ).action(async (xpath: string, options: SnapshotOptions) => {
    if (options.mockFile) {
      const { snapshotMockFile } = await import('../mock-file.js');
      if (snapshotMockFile(xpath, options)) return;
    }
    const session = await openCommandRuntime(options);
    try {
      const stats = measureStats(session.runtime);
      const roots = await selectNodes(
        session.xpath,
        xpath,
        options.timeout,
        `snapshot needs an XPath that selects nodes; "${xpath}" selected other items`,
      );
      const collect = collectSubtree.bind(null, session.runtime);
      const work = Promise.all(
        roots.map((root) =>
          collect(root, {
            attrs: options.attrs,
            includeRuntimeId: options.includeRuntimeId === true,
            maxDepth: options.maxDepth,
          }),
        ),
      );
      const trees = options.timeout !== undefined ? await withTimeout(work, options.timeout) : await work;
      if (options.format === 'json') writeSnapshotJson(trees, (chunk) => process.stdout.write(chunk));
      else process.stdout.write(formatSnapshot(trees, options.format));
      if (options.stats) {
        stats.write(trees.length);
      }
    } finally {
      await session.close();
    }
  });
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new InspectorError('timeout', `the snapshot did not finish within ${timeoutMs} ms`)),
      timeoutMs,
    );
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

function parseFormat(value: string): 'xml' | 'json' | 'text' {
  if (value !== 'xml' && value !== 'json' && value !== 'text') {
    throw new InspectorError('usage', `--format must be xml, json or text, got "${value}"`);
  }
  return value;
}
