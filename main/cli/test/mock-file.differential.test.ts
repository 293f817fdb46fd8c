/**
 * Differential test: `query` and `snapshot` over a mock file alone (the file's table under the XPath fast path in the
 * CLI's thread, main/cli/mock-file.ts) against the general path (MockProvider, Runtime, the XPath worker and its
 * mirror), on random snapshot files and random queries: the same output, item for item and in order, in every
 * format. Deterministic (seeded).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { seededRandom } from '../../../shared/random.js';
import { indexQuery, randomQuery } from '../../../shared/xpath/test/generate.js';
import { randomSnapshotTree, snapshotXml } from '../../../shared/snapshot/test/generate-snapshot.js';
import '../../backends/mock.js';
import { runtimeOptionsFrom } from '../../backends/flags.js';
import { Runtime } from '../../runtime/runtime.js';
import type { RuntimeNode } from '../../runtime/node.js';
import { XPathService } from '../../xpath/xpath-service.js';
import { collectMockSubtree, evaluateMockFile, openMockFile } from '../mock-file.js';
import {
  collectSubtree,
  formatSnapshot,
  itemJson,
  itemJsonOf,
  itemText,
  readSelectedFrom,
  type AttributeSelection,
} from '../../services/snapshot.js';

const dir = mkdtempSync(path.join(tmpdir(), 'mock-file-diff-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Queries that reach what the runtime adds or hides: ids, technology, patterns, aliases, secrets. */
const FIXED = [
  '//*',
  '//*/@*',
  '//Button/@RuntimeId',
  "//*[@RuntimeId='mock:button-1']",
  '//*/@Technology',
  '//*/@SupportedPatterns',
  '//*/@Bounds.X',
  '//*/@native:Bounds.X',
  '//*/@Text',
  '//*/@native:Text',
  '//*/@Id',
  "//*[@Id='']",
  '//*/@Name',
  '//*/@native:Name',
  '//Window',
  '/Window',
  '/*',
  '/app:Application/*',
  "//app:Application[@Name='A']//Button",
  'count(//*)',
  '(//Button)[1]/..',
  '//Button[@IsEnabled = true()]',
  '//*[@Name]/@*',
  // The file's index by name (and Names whose text is no string's: `true`, `1`).
  "//Button[@Name='OK']",
  "//Button[@Name='']",
  "//Button[@Name='true']",
  "count(//Button[@Name='1'])",
  "//Window[@Name='OK']/Button[1]",
  '//Window/Button[2]',
  "(//Window[@Name='OK'])[last()]",
];

const SELECTIONS: AttributeSelection[] = ['all', 'default', 'none'];

test('query and snapshot over a mock file give the general path’s answers, in every format', async () => {
  let compared = 0;
  let declined = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const file = path.join(dir, `tree-${seed}.xml`);
    writeFileSync(file, snapshotXml(randomSnapshotTree(seed)));
    let runtime: Runtime;
    try {
      runtime = await Runtime.create(runtimeOptionsFrom({ provider: ['mock'], mockFile: file }));
    } catch (error) {
      // A file both paths refuse (a RuntimeId given twice): with the same words.
      await assert.rejects(openMockFile({ mockFile: file }), { message: (error as Error).message });
      continue;
    }
    const service = new XPathService(runtime);
    const opened = (await openMockFile({ mockFile: file }))!;
    try {
      const r = seededRandom(seed * 7919);
      const queries = [
        ...FIXED,
        ...Array.from({ length: 40 }, () => randomQuery(r)),
        ...Array.from({ length: 15 }, () => indexQuery(r)),
      ];
      for (const query of queries) {
        const fast = evaluateMockFile(opened, query, undefined);
        if (!fast) {
          declined++;
          continue;
        }
        const { items } = await service.evaluate(query);
        const where = `seed ${seed}, ${query}`;
        assert.deepEqual(fast.map(itemText), items.map(itemText), `text: ${where}`);
        const attrs = SELECTIONS[compared % SELECTIONS.length]!;
        const select = { attrs, includeRuntimeId: compared % 2 === 0 };
        const expected = await Promise.all(items.map((item) => itemJson(item, select)));
        const actual = fast.map((item) =>
          itemJsonOf(item, item.type === 'node' ? readSelectedFrom(item.node, select) : [], select),
        );
        assert.deepEqual(actual, expected, `json (${attrs}): ${where}`);
        const roots = items.flatMap((item): RuntimeNode[] => (item.type === 'node' ? [item.node] : []));
        if (roots.length === items.length && roots.length > 0) {
          const options = { ...select, maxDepth: compared % 3 === 0 ? 1 : undefined };
          const general = await Promise.all(roots.map((root) => collectSubtree(runtime, root, options)));
          const ours = fast.map((item) =>
            collectMockSubtree(opened, item.type === 'node' ? item.node.index : 0, options),
          );
          for (const format of ['xml', 'json', 'text'] as const)
            assert.equal(formatSnapshot(ours, format), formatSnapshot(general, format), `snapshot ${format}: ${where}`);
        }
        compared++;
      }
    } finally {
      await service.close();
      await runtime.shutdown();
    }
  }
  process.stdout.write(`compared ${compared}, declined ${declined}\n`);
  // The fast path answers most of these; the rest (fontoxpath's) take the general path in the CLI.
  assert.ok(compared > 1000, `compared ${compared}, declined ${declined}`);
});
