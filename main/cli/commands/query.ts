import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import { applicationsReached } from '../../../shared/xpath/fast/reach.js';
import { itemJson, itemText, type AttributeSelection } from '../../services/snapshot.js';
import type { RuntimeCliOptions } from '../command-runtime.js';
import { addRuntimeOptions, parseAttrs, parseTimeout, measureStats } from '../options.js';

export interface QueryOptions extends RuntimeCliOptions {
  format: 'text' | 'json';
  timeout?: number;
  stats?: boolean;
  attrs: AttributeSelection;
}

export function registerQuery(program: Command): void {
  addRuntimeOptions(
    program
      .command('query')
      .description('evaluate an XPath expression against the desktop tree and print what it selects')
      .argument('<xpath>', 'XPath 3.1 expression; the context is the desktop')
      .option('--format <format>', 'text or json', parseFormat, 'text')
      .option('--attrs <set>', 'attributes of node results: none, default or all', parseAttrs, 'all')
      .option('--timeout <ms>', 'give up after this many milliseconds (exit 4)', parseTimeout)
      .option('--stats', 'write {"evalMs","nodesFetched","results"} as one JSON line to stderr'),
  ).action(async (xpath: string, options: QueryOptions) => {
    if (options.mockFile) {
      const { queryMockFile } = await import('../mock-file.js');
      if (await queryMockFile(xpath, options)) return;
    }
    // The runtime and the XPath worker are loaded only when the mock file's path declines.
    const { openCommandRuntime } = await import('../command-runtime.js');
    const opened = await openCommandRuntime(options, { prefetch: applicationsReached(xpath) });
    try {
      const stats = measureStats(opened.runtime);
      const { items } = await opened.xpath.evaluate(xpath, {
        ...(options.timeout !== undefined ? { timeoutMs: options.timeout } : {}),
      });
      const select = { attrs: options.attrs, includeRuntimeId: false };
      if (options.format === 'json') {
        const out = await Promise.all(items.map((item) => itemJson(item, select)));
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      } else {
        for (const item of items) process.stdout.write(`${itemText(item)}\n`);
      }
      if (options.stats) {
        stats.write(items.length);
      }
    } finally {
      await opened.close();
    }
  });
}

function parseFormat(value: string): 'text' | 'json' {
  if (value !== 'text' && value !== 'json')
    throw new InspectorError('usage', `--format must be text or json, got "${value}"`);
  return value;
}
