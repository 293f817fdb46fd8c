import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../shared/random.js';
import { compileFastPath, FastPathFallback } from '../../shared/xpath/fast/index.js';
import { MessageChannel } from 'node:worker_threads';
import { MirrorTree, type MirrorNode } from '../../main/xpath/worker/mirror-tree.js';
import { RecordBlockWriter } from '../../main/xpath/record-block.js';
import { indexQuery, randomQuery, randomTree } from '../../shared/xpath/test/generate.js';
import { completeMirror, generateSnapshotXml, parseSnapshotXml } from '../xpath-fast-path.js';

function answer(mirror: MirrorTree, query: string, context: MirrorNode): string {
  const q = compileFastPath(query);
  assert.ok(q, query);
  try {
    return [...q.evaluate(mirror, context)]
      .map((i) =>
        i.type === 'node' ? `n${i.node.h}` : i.type === 'attribute' ? `a${i.owner.h}@${i.localName}` : i.value,
      )
      .join(' ');
  } catch (e) {
    if (e instanceof FastPathFallback) return 'fallback';
    throw e;
  }
}

test('the worker mirror indexes itself only once it holds the whole tree, and only when asked', () => {
  const tree = parseSnapshotXml(
    '<snapshot xmlns="urn:platynui:control"><Window Name="w"><Pane Name="p"><Button Name="b"/></Pane>' +
      '<Button Name="c"/></Window></snapshot>',
  );
  const mirror = completeMirror(tree);
  assert.ok(mirror.complete);
  assert.equal(mirror.elementsNamed('urn:platynui:control', 'Button'), undefined, 'not before buildIndex()');
  assert.equal(mirror.buildIndex(), true);
  assert.deepEqual(
    [0, 1, 2].map((i) => mirror.elementsNamed('urn:platynui:control', 'Button')?.at(i)?.name),
    ['b', 'c', undefined],
  );
  assert.equal(mirror.elementsNamed('urn:platynui:control', 'Button', 'c')?.at(0)?.name, 'c');
  assert.equal(mirror.indexBuilds, 1);
  // A mirror that still lacks some node's children builds nothing and answers nothing.
  const { port1, port2 } = new MessageChannel();
  port1.close();
  const writer = new RecordBlockWriter();
  const root = writer.add({ h: 0, p: -1, ns: 'control', role: '', name: '', rid: 'desktop', id: undefined }, true);
  writer.setKids(root, 1);
  writer.add({ h: 1, p: 0, ns: 'control', role: 'Window', name: 'w', rid: 'w', id: undefined }, false);
  const partial = new MirrorTree(writer.finish(), port2, new Int32Array(new SharedArrayBuffer(8)));
  assert.equal(partial.complete, false);
  assert.equal(partial.buildIndex(), false);
  assert.equal(partial.elementsNamed('urn:platynui:control', 'Window'), undefined);
  port2.close();
});

test('over the worker mirror, the index gives the walk its answers, node for node (random trees and queries)', () => {
  let compared = 0;
  for (let t = 0; t < 80; t++) {
    const mirror = completeMirror(randomTree(9000 + t));
    const nodes: MirrorNode[] = [];
    for (let h = 0; mirror.node(h); h++) nodes.push(mirror.node(h)!);
    const r = seededRandom(40 + t);
    for (let i = 0; i < 60; i++) {
      const query = r() < 0.75 ? indexQuery(r) : randomQuery(r);
      const context = r() < 0.85 ? mirror.root : nodes[Math.floor(r() * nodes.length)]!;
      mirror.dropIndex();
      const walked = answer(mirror, query, context);
      mirror.buildIndex();
      const indexed = answer(mirror, query, context);
      assert.equal(indexed, walked, `${query} (tree ${9000 + t})`);
      if (walked !== 'fallback') compared++;
    }
  }
  assert.ok(compared > 4500, `${compared} compared`);
});

test('the benchmark tree: the mirror index lists its 100,000 Buttons in document order', () => {
  const mirror = completeMirror(parseSnapshotXml(generateSnapshotXml()));
  assert.ok(mirror.buildIndex());
  const buttons = mirror.elementsNamed('urn:platynui:control', 'Button')!;
  assert.equal(buttons.at(0)?.name, 'b5');
  assert.equal(buttons.at(99_999)?.name, 'b111110');
  assert.equal(buttons.at(100_000), undefined);
  assert.equal(mirror.elementsNamed('urn:platynui:control', 'Pane', 'p4')?.at(0)?.name, 'p4');
});
