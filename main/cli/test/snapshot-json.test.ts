import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AttributeEntry } from '../../../shared/model/attributes.js';
import {
  uiArray,
  uiBool,
  uiInteger,
  uiNull,
  uiNumber,
  uiObject,
  uiPoint,
  uiRect,
  uiSize,
  uiString,
} from '../../../shared/model/values.js';
import { Runtime } from '../../runtime/runtime.js';
import {
  chunkedBytes,
  collectSubtree,
  snapshotJson,
  writeSnapshotJson,
  type CollectedNode,
} from '../../services/snapshot.js';

function written(trees: readonly CollectedNode[], pretty = true): { text: string; chunks: number } {
  const chunks: string[] = [];
  writeSnapshotJson(trees, (chunk) => chunks.push(chunk), { pretty });
  return { text: chunks.join(''), chunks: chunks.length };
}

test('chunkedBytes hands on the UTF-8 of what was written, in chunks of at most a megabyte', () => {
  const texts = ['{"name": "Grüße 😀"}', 'x'.repeat(400_000), '€'.repeat(300_000), 'y'.repeat(1_200_000), '', 'end\n'];
  const chunks: Buffer[] = [];
  const output = chunkedBytes((chunk) => chunks.push(Buffer.from(chunk)));
  for (const text of texts) output.write(text);
  output.flush();
  output.flush();
  assert.ok(Buffer.concat(chunks).equals(Buffer.from(texts.join(''), 'utf8')));
  // A text that might not fit a chunk goes out as its own; the others fill chunks up to a megabyte.
  assert.deepEqual(
    chunks.map((chunk) => chunk.length),
    [Buffer.byteLength(texts[0]!), 400_000, 900_000, 1_200_000, 4],
  );
});

test('attributes of every kind are written as JSON.stringify writes them, odd keys and values included', () => {
  const attributes: AttributeEntry[] = [
    { namespace: 'control', name: 'Name', value: uiString('quote " backslash \\ newline \n tab \t \u2028 \ud800') },
    { namespace: 'control', name: 'Bounds', value: uiRect({ x: 1, y: -2, width: 3.5, height: 0 }) },
    { namespace: 'native', name: 'Accessible.States', value: uiArray([uiString('enabled'), uiArray([])]) },
    { namespace: 'native', name: 'Accessible.Attributes', value: uiObject({ b: uiString('1'), '7': uiNull() }) },
    { namespace: 'native', name: 'Empty', value: uiObject({}) },
    { namespace: 'control', name: 'Value', value: uiNumber(Number.NaN) },
    { namespace: 'control', name: 'Count', value: uiInteger(-0) },
    { namespace: 'control', name: 'IsEnabled', value: uiBool(false) },
    { namespace: 'control', name: 'Nothing', value: uiNull() },
    { namespace: 'control', name: 'Point', value: uiPoint({ x: 5, y: 6 }) },
    { namespace: 'control', name: 'Size', value: uiSize({ width: 7, height: Number.POSITIVE_INFINITY }) },
    {
      namespace: 'native',
      name: 'Nested',
      value: uiObject({
        z: uiArray([uiObject({ '2': uiBool(true), a: uiArray([uiRect({ x: 0, y: 0, width: 1, height: 1 })]) })]),
        '10': uiArray([uiNull(), uiObject({}), uiArray([])]),
        'é "q"': uiString('ü'),
      }),
    },
  ];
  // A key the plain copy cannot have as its own (assigning __proto__ sets the prototype): left out as there.
  const proto = uiObject(
    Object.defineProperty({ a: uiString('1') }, '__proto__', { value: uiString('x'), enumerable: true }),
  );
  attributes.push({ namespace: 'native', name: 'Proto', value: proto });
  const node = (entries: AttributeEntry[]): CollectedNode => ({
    runtimeId: 'mock:1',
    namespace: 'control',
    role: 'Pane',
    name: 'n',
    attributes: entries,
    children: [
      { runtimeId: 'mock:2', namespace: 'control', role: 'Text', name: '', attributes: entries, children: [] },
    ],
  });
  const cases = [
    attributes,
    [],
    // A key twice (JSON.stringify keeps the first place and the last value) and index keys (written first).
    [...attributes, { namespace: 'control' as const, name: 'Name', value: uiString('again') }],
    [...attributes, { namespace: 'control' as const, name: '12', value: uiString('index') }],
  ];
  for (const entries of cases) {
    const trees = [node(entries)];
    assert.equal(written(trees).text, `${JSON.stringify(trees.map(snapshotJson), null, 2)}\n`);
    assert.equal(written(trees, false).text, `${JSON.stringify(trees.map(snapshotJson))}\n`);
  }
});

test('writeSnapshotJson writes what JSON.stringify of the JSON tree writes, byte for byte, in chunks', async () => {
  const runtime = await Runtime.create({ providers: ['mock'], platform: 'mock' });
  try {
    for (const attrs of ['none', 'default', 'all'] as const) {
      const tree = await collectSubtree(runtime, runtime.desktop, {
        attrs,
        includeRuntimeId: false,
        maxDepth: undefined,
      });
      const trees = [tree, tree.children[0]!];
      assert.equal(written(trees).text, `${JSON.stringify(trees.map(snapshotJson), null, 2)}\n`, attrs);
      assert.equal(written(trees, false).text, `${JSON.stringify(trees.map(snapshotJson))}\n`, `${attrs}, compact`);
    }
    assert.equal(written([]).text, '[]\n');
    assert.equal(written([], false).text, '[]\n');
    // A large output goes out in several chunks, never as one string of the whole output.
    const tree = await collectSubtree(runtime, runtime.desktop, {
      attrs: 'all',
      includeRuntimeId: true,
      maxDepth: undefined,
    });
    const many = Array.from({ length: 200 }, () => tree);
    const big = written(many);
    assert.ok(big.chunks > 1, `${big.chunks} chunks`);
    assert.equal(big.text, `${JSON.stringify(many.map(snapshotJson), null, 2)}\n`);
  } finally {
    await runtime.shutdown();
  }
});
