import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  buildLocatorTree,
  isApplication,
  LocatorIndex,
  LocatorXdmTree,
  proposeLocators,
  selectNodes,
  type LocatorNodeInit,
  type LocatorTree,
} from '../index.js';

let keys = 0;
function node(role: string, name: string, children: LocatorNodeInit[] = []): LocatorNodeInit {
  return { namespace: 'control', role, name, key: `n${keys++}`, children };
}

/**
 * A window with a table whose rows share their ancestors (the counting remembers answers for ancestors within a run,
 * never across runs) and repeat their unnamed cells and buttons (positions and scoping are needed to tell them apart).
 */
function tableTree(rows: number): LocatorTree {
  const body = Array.from({ length: rows }, (_, row) =>
    node('Row', '', [
      node('Cell', `Item ${row}`, [node('CheckBox', row % 3 === 0 ? 'Select' : `Select item ${row}`)]),
      node('Cell', '', [node('Button', ''), node('Panel', '', [node('Button', '')])]),
    ]),
  );
  const app = {
    ...node('Application', 'Demo', [
      node('Frame', 'Demo window', [
        node('Panel', '', [node('Table', 'Data', body), node('Panel', 'Side', [node('Button', 'Side')])]),
        node('Panel', '', [node('Button', ''), node('Button', 'Close')]),
      ]),
    ]),
    namespace: 'app' as const,
  };
  return buildLocatorTree([app]);
}

test('every candidate the index counts as selecting its target alone does so by the XPath engine (nodes sharing ancestors, counted run after run)', () => {
  const tree = tableTree(40);
  const index = new LocatorIndex(tree);
  const xdm = new LocatorXdmTree(tree);
  let compared = 0;
  // Below the window: the XDM view lists windows under the document as well (positions there differ by design).
  const inside = tree.nodes.filter((n) => n.parent && !isApplication(n) && !isApplication(n.parent));
  for (const target of inside) {
    for (const { xpath } of proposeLocators(index, target)) {
      assert.deepEqual(
        selectNodes(xdm, xpath, 'fontoxpath').map((n) => n.key),
        [target.key],
        `${xpath} for ${target.role} ${target.key}`,
      );
      compared++;
    }
  }
  assert.ok(compared > inside.length * 2, `${compared} candidates compared`);
});
