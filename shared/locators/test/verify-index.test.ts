import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MOCK_TREE } from '../../../main/providers/mock/default-tree.js';
import { readSnapshotXml } from '../../snapshot/xml-reader.js';
import type { XdmTree } from '../../xpath/tree.js';
import {
  LocatorIndex,
  LocatorXdmTree,
  locatorTreeFromSnapshot,
  proposeLocators,
  proposeXPaths,
  selectNodes,
  selectNodesFast,
  type LocatorNode,
} from '../index.js';

/** The same tree without the name index and the document positions: the fast path walks and orders by paths. */
function scanningView(xdm: LocatorXdmTree): XdmTree<LocatorNode> {
  return {
    root: xdm.root,
    isDocument: (node) => xdm.isDocument(node),
    namespaceUri: (node) => xdm.namespaceUri(node),
    localName: (node) => xdm.localName(node),
    prefix: (node) => xdm.prefix(node),
    parent: (node) => xdm.parent(node),
    children: (node) => xdm.children(node),
    attributes: (node) => xdm.attributes(node),
    attribute: (node, namespaceUri, localName) => xdm.attribute(node, namespaceUri, localName),
    checkCancelled: () => undefined,
  };
}

function keysOf(nodes: readonly LocatorNode[] | undefined): string[] | undefined {
  return nodes?.map((node) => node.key);
}

/** What the fast path selects, asserted to be what a scan and fontoxpath select. */
function selectsAsScanAndFontoxpath(xdm: LocatorXdmTree, xpath: string): string[] {
  const indexed = keysOf(selectNodesFast(xdm, xpath));
  assert.ok(indexed, `${xpath} is in the fast path's subset`);
  assert.deepEqual(indexed, keysOf(selectNodesFast(scanningView(xdm) as LocatorXdmTree, xpath)), xpath);
  assert.deepEqual(indexed, keysOf(selectNodes(xdm, xpath, 'fontoxpath')), `${xpath} as fontoxpath`);
  return indexed;
}

/** The mock desktop (two applications, windows listed under the document and again under their application). */
const tree = locatorTreeFromSnapshot(readSnapshotXml(DEFAULT_MOCK_TREE));

test('the indexed capture selects what a scan of the whole capture selects, for every candidate locator', () => {
  const xdm = new LocatorXdmTree(tree);
  const scan = new LocatorXdmTree(tree);
  const index = new LocatorIndex(tree);
  let compared = 0;
  for (const node of tree.nodes) {
    for (const { xpath } of proposeLocators(index, node)) {
      const indexed = keysOf(selectNodesFast(xdm, xpath));
      assert.ok(indexed, `${xpath} is in the fast path's subset`);
      const scanned = keysOf(selectNodesFast(scanningView(scan) as LocatorXdmTree, xpath));
      assert.deepEqual(indexed, scanned, xpath);
      compared++;
    }
  }
  assert.ok(compared > tree.nodes.length, `${compared} candidates compared`);
});

test("positional steps below every node (//T[n]) select as the scan and fontoxpath do, also where windows are an application's children", () => {
  const xdm = new LocatorXdmTree(tree);
  const queries = [
    '//*[1]',
    '//*[2]',
    '//*[last()]',
    '//Window[1]',
    '//Window[2]',
    '//Button[1]',
    '//Button[2]',
    "//Button[@Name='OK'][1]",
    '//*[2]/*[1]',
    '//app:Application[1]',
    "//app:Application[@Name='Studio']//*[1]",
    "//app:Application[@Name='Studio']//Window[2]",
    '//Window//*[3]',
    '//node()[1]',
    '//*[0]',
  ];
  for (const xpath of queries) selectsAsScanAndFontoxpath(xdm, xpath);
  assert.ok((keysOf(selectNodesFast(xdm, '//Window[2]')) ?? []).length > 0, 'a second window is found');
});

test('//T[n] asked again over the same tree, alone and as the first step of longer paths, selects as fontoxpath does', () => {
  const xdm = new LocatorXdmTree(tree);
  const queries = ['//*[1]', '//*[2]/*[1]', '//*[1]/Button', '//*[2]', '//*[1]/*[2]', '//Window[1]', '//Window[1]/*'];
  // The second round answers from what the first one kept for this tree.
  for (let round = 0; round < 2; round++) for (const xpath of queries) selectsAsScanAndFontoxpath(xdm, xpath);
  assert.ok((keysOf(selectNodesFast(xdm, '//*[1]')) ?? []).length > 1, 'first children are found');
});

test('a limited selection gives the first nodes of the full one, in document order', () => {
  const xdm = new LocatorXdmTree(tree);
  for (const xpath of ['//*[1]', '//Button', "//*[@Name='OK']", '//Window[1]']) {
    const all = keysOf(selectNodesFast(xdm, xpath)) ?? [];
    assert.deepEqual(keysOf(selectNodesFast(xdm, xpath, { limit: 2 })), all.slice(0, 2), xpath);
  }
  assert.ok((keysOf(selectNodesFast(xdm, '//*[1]')) ?? []).length > 2, 'the limit cut a longer answer');
});

test('child steps from many contexts (collected and sorted by position) select as the scan and fontoxpath do', () => {
  const xdm = new LocatorXdmTree(tree);
  const queries = [
    '//*[1]/*[1]/*',
    '//*/*[2]',
    '/*/*',
    '/*/*[1]/*',
    '//app:Application/*',
    "//app:Application[@Name='Studio']/*/*",
    '//*/Window[1]',
    '//Window/*/Button',
    '(//*[1]/*)[last()]',
  ];
  for (const xpath of queries) assert.ok(selectsAsScanAndFontoxpath(xdm, xpath).length > 0, `${xpath} selects nodes`);
});

test('candidates counted once per tree (shared by the targets of one index) are those of a fresh index per target', () => {
  const shared = new LocatorIndex(tree, { maxResults: 1 });
  for (const node of tree.nodes) {
    const fresh = proposeLocators(new LocatorIndex(tree, { maxResults: 1 }), node);
    assert.deepEqual(proposeLocators(shared, node), fresh, node.key);
  }
});

test('proposeXPaths lists the XPaths of proposeLocators in its order', () => {
  const index = new LocatorIndex(tree, { maxResults: 1 });
  for (const node of tree.nodes) {
    assert.deepEqual(
      proposeXPaths(index, node),
      proposeLocators(index, node).map((locator) => locator.xpath),
      node.key,
    );
  }
});
