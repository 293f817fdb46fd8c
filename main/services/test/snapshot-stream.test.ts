import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { snapshotWriter, type SnapshotFormat } from '../../cli/snapshot-output.js';
import type { RuntimeNode } from '../../runtime/node.js';
import { Runtime } from '../../runtime/runtime.js';
import { collectSubtree, formatSnapshot, type SubtreeOptions } from '../snapshot.js';
import { streamSubtree, type StreamPace } from '../snapshot-stream.js';

const FREE: StreamPace = { backpressure: () => undefined, checkCancelled: () => {} };

async function streamed(
  runtime: Runtime,
  roots: readonly RuntimeNode[],
  options: SubtreeOptions,
  format: SnapshotFormat,
  pretty: boolean,
  readAhead: number,
): Promise<string> {
  const parts: string[] = [];
  const writer = snapshotWriter(format, (text) => parts.push(text), pretty);
  for (const root of roots) await streamSubtree(runtime, root, options, writer, FREE, readAhead);
  writer.end();
  return parts.join('');
}

test('a streamed snapshot writes the bytes of the collected one, in every format, whatever its read-ahead', async () => {
  const runtime = await Runtime.create({ providers: ['mock'], platform: 'mock' });
  try {
    const top = await runtime.structuralChildren(runtime.desktop);
    assert.ok(top.length > 0);
    for (const attrs of ['none', 'default', 'all'] as const) {
      for (const maxDepth of [undefined, 0, 2]) {
        const options: SubtreeOptions = { attrs, includeRuntimeId: attrs === 'none', maxDepth };
        for (const roots of [[runtime.desktop], [top[0]!, runtime.desktop], []]) {
          const trees = await Promise.all(roots.map((root) => collectSubtree(runtime, root, options)));
          for (const format of ['xml', 'json', 'text'] as const) {
            for (const pretty of [true, false]) {
              const expected = formatSnapshot(trees, format, { pretty: format === 'text' || pretty });
              for (const readAhead of [1, 3, 128]) {
                const where = `${attrs} depth ${maxDepth} ${roots.length} roots ${format} pretty ${pretty} ahead ${readAhead}`;
                const text = await streamed(runtime, roots, options, format, format === 'text' || pretty, readAhead);
                assert.equal(text, expected, where);
              }
            }
          }
        }
      }
    }
  } finally {
    await runtime.shutdown();
  }
});

test('a streamed snapshot stops at the node where it is cancelled, with what it wrote before', async () => {
  const runtime = await Runtime.create({ providers: ['mock'], platform: 'mock' });
  try {
    const options: SubtreeOptions = { attrs: 'default', includeRuntimeId: false, maxDepth: undefined };
    const lines: string[] = [];
    const writer = snapshotWriter('text', (text) => lines.push(text), true);
    let checks = 0;
    const pace: StreamPace = {
      backpressure: () => undefined,
      checkCancelled: () => {
        if (++checks > 5) throw new Error('cancelled');
      },
    };
    await assert.rejects(streamSubtree(runtime, runtime.desktop, options, writer, pace), /cancelled/);
    assert.equal(lines.length, 5);
    // The whole tree has more nodes than were written.
    const all = await streamed(runtime, [runtime.desktop], options, 'text', true, 128);
    assert.ok(all.split('\n').length > 6);
  } finally {
    await runtime.shutdown();
  }
});
