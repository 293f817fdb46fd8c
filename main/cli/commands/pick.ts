import type { Command } from 'commander';
import type { Point } from '../../../shared/model/values.js';
import type { RuntimeNode } from '../../runtime/node.js';
import { elementStacksAtPoint } from '../../services/hit-test.js';
import { addRuntimeOptions, parseAttrs, writeStats } from '../options.js';
import { nodeJson, textLine, type AttributeSelection } from '../../services/snapshot.js';
import type { RuntimeCliOptions } from '../command-runtime.js';
import { openDevices, parsePoint } from './device-support.js';

interface PickOptions extends RuntimeCliOptions {
  at: Point;
  all?: boolean;
  format: 'text' | 'json';
  attrs: AttributeSelection;
  stats?: boolean;
}

export function registerPick(program: Command): void {
  addRuntimeOptions(
    program
      .command('pick')
      .description('the element at a desktop point: the deepest element of the topmost window there')
      .requiredOption('--at <x,y>', 'desktop point', parsePoint)
      .option('--all', 'every candidate under the point: each window topmost first, each element deepest first')
      .option('--format <format>', 'text or json', 'text')
      .option('--attrs <set>', 'attributes in JSON: none, default or all', parseAttrs, 'all')
      .option('--stats', 'write {"evalMs","nodesFetched","results"} as one JSON line to stderr'),
  ).action(async (options: PickOptions) => {
    const devices = await openDevices(options, true, { xpath: false });
    try {
      const runtime = devices.tree!.runtime;
      const started = performance.now();
      const fetchedBefore = runtime.nodesFetched;
      const stacks = await elementStacksAtPoint(runtime, options.at, { all: Boolean(options.all) });
      const nodes: RuntimeNode[] = options.all
        ? stacks.flat()
        : stacks.slice(0, 1).flatMap((stack) => stack.slice(0, 1));
      const evalMs = performance.now() - started;
      if (options.format === 'json') {
        const select = { attrs: options.attrs, includeRuntimeId: false };
        const out = await Promise.all(nodes.map(async (node) => ({ type: 'node', ...(await nodeJson(node, select)) })));
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      } else {
        for (const node of nodes) process.stdout.write(`${textLine(node)}\n`);
      }
      if (options.stats)
        writeStats({ evalMs, nodesFetched: runtime.nodesFetched - fetchedBefore, results: nodes.length });
    } finally {
      await devices.close();
    }
  });
}
