import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InspectorError } from '../../model/errors.js';
import { readSnapshotXml } from '../xml-reader.js';
import { writeSnapshotXml } from '../xml-writer.js';
import type { SnapshotNode } from '../model.js';
import { qualifiedRole } from '../../model/namespaces.js';
import { randomSnapshotTree, snapshotXml } from './generate-snapshot.js';

const HEADER =
  '<snapshot xmlns="urn:platynui:control" xmlns:item="urn:platynui:item" xmlns:app="urn:platynui:app" xmlns:native="urn:platynui:native">';

test('reads nodes with namespaces and typed attributes', () => {
  const nodes = readSnapshotXml(
    `${HEADER}<app:Application Name="A"><Window Name="W" Bounds='{"x":1,"y":2,"width":3,"height":4}' native:Role="frame"><item:ListItem IsSelected="true" Index="3"/></Window></app:Application></snapshot>`,
  );
  assert.equal(nodes.length, 1);
  const app = nodes[0]!;
  assert.equal(app.namespace, 'app');
  assert.equal(app.role, 'Application');
  const window = app.children[0]!;
  assert.deepEqual(window.attributes, [
    { namespace: 'control', name: 'Name', value: { type: 'String', value: 'W' } },
    { namespace: 'control', name: 'Bounds', value: { type: 'Rect', value: { x: 1, y: 2, width: 3, height: 4 } } },
    { namespace: 'native', name: 'Role', value: { type: 'String', value: 'frame' } },
  ]);
  const item = window.children[0]!;
  assert.equal(item.namespace, 'item');
  assert.deepEqual(item.attributes[0]!.value, { type: 'Bool', value: true });
  assert.deepEqual(item.attributes[1]!.value, { type: 'Integer', value: 3 });
});

test('a single node element is a snapshot too', () => {
  const nodes = readSnapshotXml('<Button xmlns="urn:platynui:control" Name="OK"/>');
  assert.equal(nodes[0]!.role, 'Button');
});

test('bad input gets an error that names the place and the problem', () => {
  const cases: Array<[string, RegExp]> = [
    [`${HEADER}<Window>`, /mock\.xml:.*not well-formed|mock\.xml:\d+:\d+/],
    [
      `${HEADER}\n  <foo:Window xmlns:foo="urn:other"/></snapshot>`,
      /mock\.xml:2:\d+: element <foo:Window> is in namespace "urn:other"/,
    ],
    [
      `${HEADER}<Window x:Name="a" xmlns:x="urn:x"/></snapshot>`,
      /attribute x:Name on <Window> is in unknown namespace "urn:x"/,
    ],
    [`${HEADER}text</snapshot>`, /unexpected text "text"/],
    ['', /no element|not well-formed/],
  ];
  for (const [xml, pattern] of cases) {
    assert.throws(
      () => readSnapshotXml(xml, 'mock.xml'),
      (error: unknown) =>
        error instanceof InspectorError && error.code === 'invalid-input' && pattern.test(error.message),
      `expected ${pattern} for ${JSON.stringify(xml)}`,
    );
  }
});

test('writing what was read gives the same XML, byte for byte', () => {
  const xml = writeSnapshotXml([
    {
      namespace: 'app',
      role: 'Application',
      attributes: [{ namespace: 'control', name: 'Name', value: { type: 'String', value: 'A & "B" <c>' } }],
      children: [
        {
          namespace: 'control',
          role: 'Window',
          attributes: [
            { namespace: 'control', name: 'Scale', value: { type: 'Number', value: 2 } },
            { namespace: 'native', name: 'Role', value: { type: 'String', value: 'frame' } },
          ],
          children: [],
        },
      ],
    },
  ]);
  assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<snapshot xmlns="urn:platynui:control"/);
  assert.match(xml, /Scale="2.0"/);
  assert.equal(writeSnapshotXml(readSnapshotXml(xml)), xml);
});

test('the writer writes the bytes xmlbuilder2 wrote before it, at any depth', async () => {
  const { create } = await import('xmlbuilder2');
  const { NAMESPACE_URIS } = await import('../../model/namespaces.js');
  const { formatValueText } = await import('../../model/values.js');
  type Builder = ReturnType<typeof create>;
  // The writer as it was (xmlbuilder2), kept here as the reference.
  const reference = (nodes: readonly SnapshotNode[]): string => {
    const document = create({ version: '1.0', encoding: 'UTF-8' });
    const rootElement = document
      .ele(NAMESPACE_URIS.control, 'snapshot')
      .att('http://www.w3.org/2000/xmlns/', 'xmlns:item', NAMESPACE_URIS.item)
      .att('http://www.w3.org/2000/xmlns/', 'xmlns:app', NAMESPACE_URIS.app)
      .att('http://www.w3.org/2000/xmlns/', 'xmlns:native', NAMESPACE_URIS.native);
    const append = (parent: Builder, node: SnapshotNode) => {
      const element = parent.ele(NAMESPACE_URIS[node.namespace], qualifiedRole(node.namespace, node.role));
      for (const a of node.attributes) {
        if (a.namespace === 'control') element.att(a.name, formatValueText(a.value));
        else element.att(NAMESPACE_URIS[a.namespace], `${a.namespace}:${a.name}`, formatValueText(a.value));
      }
      for (const child of node.children) append(element, child);
    };
    for (const node of nodes) append(rootElement, node);
    return `${document.end({ prettyPrint: true, indent: '  ' })}\n`;
  };
  for (let seed = 1; seed <= 200; seed++) {
    const nodes = readSnapshotXml(snapshotXml(randomSnapshotTree(seed)));
    assert.equal(writeSnapshotXml(nodes), reference(nodes), `seed ${seed}`);
  }
  assert.equal(writeSnapshotXml([]), reference([]));
  let deep: SnapshotNode = { namespace: 'control', role: 'Pane', attributes: [], children: [] };
  for (let i = 0; i < 4000; i++) deep = { namespace: 'item', role: 'TreeItem', attributes: [], children: [deep] };
  assert.equal(writeSnapshotXml([deep]).split('\n').length, 8_005);
});

test('the compact layout holds the same nodes on one line after the declaration', () => {
  for (let seed = 1; seed <= 50; seed++) {
    const nodes = readSnapshotXml(snapshotXml(randomSnapshotTree(seed)));
    const compact = writeSnapshotXml(nodes, { pretty: false });
    assert.equal(compact.split('\n').length, 3, `seed ${seed}: declaration, elements, final newline`);
    assert.doesNotMatch(compact.split('\n')[1]!, />\s+</, `seed ${seed}: no whitespace between elements`);
    assert.deepEqual(readSnapshotXml(compact), nodes, `seed ${seed}`);
  }
});
