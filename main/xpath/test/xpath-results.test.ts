import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatValueText, uiString } from '../../../shared/model/values.js';
import type { RuntimeNode } from '../../runtime/node.js';
import { MirrorNode } from '../worker/mirror-tree.js';
import { ResultWriter } from '../worker/result-writer.js';
import { XPathResults } from '../xpath-results.js';
import type { XPathItem } from '../xpath-service.js';

const mirrorNode = (h: number) => new MirrorNode(h, null, 'control', 'Button', `b${h}`, `rid${h}`, undefined);
/** Runtime nodes stand in as plain objects: the results only hand them on. */
const runtimeNodes = new Map([3, 7, 9].map((h) => [h, { runtimeId: `rid${h}` } as unknown as RuntimeNode]));
const describe = (item: XPathItem) =>
  item.type === 'node' ? item.node.runtimeId : item.type === 'value' ? `value ${formatValueText(item.value)}` : 'attr';

test('the worker writes nodes as their handles and other items beside them, up to the cap', () => {
  const writer = new ResultWriter();
  writer.node(mirrorNode(3));
  writer.attribute(mirrorNode(7), 'urn:platynui:native', 'Role', 'push button');
  writer.node(mirrorNode(9));
  writer.value(2, true);
  const { items, others } = writer.finish();
  assert.deepEqual([...items], [3, -1, 9, -2]);
  assert.deepEqual(others, [
    { kind: 'attribute', h: 7, ns: 'native', name: 'Role', text: 'push button' },
    { kind: 'value', value: 2, integer: true },
  ]);
  assert.equal(writer.truncated, false);

  const capped = new ResultWriter(2);
  for (let h = 0; h < 2000; h++) capped.node(mirrorNode(h)); // past the first buffer's size
  capped.value('x');
  assert.deepEqual([capped.finish().items.length, capped.truncated], [2, true]);
  capped.reset();
  assert.deepEqual([capped.finish().items.length, capped.finish().others, capped.truncated], [0, [], false]);

  const many = new ResultWriter();
  for (let h = 0; h < 5000; h++) many.node(mirrorNode(h));
  const grown = many.finish().items;
  assert.deepEqual([grown.length, grown[0], grown[4999]], [5000, 0, 4999]);
});

test('the results make an item only for the ones read, in order', () => {
  const value: XPathItem = { type: 'value', value: uiString('x') };
  const results = new XPathResults(Int32Array.from([3, -1, 9, 7]), [value], (h) => runtimeNodes.get(h));
  assert.equal(results.length, 4);
  assert.deepEqual(results.slice(1, 3).map(describe), ['value x', 'rid9']);
  assert.deepEqual(results.slice(2).map(describe), ['rid9', 'rid7']);
  assert.deepEqual(results.slice(3, 100).map(describe), ['rid7']);
  assert.deepEqual(results.slice(10, 20), []);
  assert.deepEqual([...results].map(describe), ['rid3', 'value x', 'rid9', 'rid7']);
  assert.equal(results.at(1), value);
  assert.throws(() => results.at(4), RangeError);
  const unknown = new XPathResults(Int32Array.from([5]), [], (h) => runtimeNodes.get(h));
  assert.throws(() => unknown.at(0), /unknown node handle 5/);
});
