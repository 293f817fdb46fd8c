// loadHeldIds: one loadId() for the top of a held region whose provider defers ids; the nodes held below it are
// made definitive with it, without a promise each.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProviderNode } from '../../core/provider.js';
import { loadHeldIds } from '../held-ids.js';
import { RuntimeNode, type NodeOwner } from '../node.js';

const owner: NodeOwner = {
  adopt: (source, parent, technology) => new RuntimeNode(owner, source, parent, technology),
  countFetched: () => undefined,
  invalidated: () => undefined,
};

/** A provider node that defers ids; `held` children are handed out without a call (peekChildren). */
function deferring(id: string, loads: string[], children: ProviderNode[], held = true): ProviderNode {
  return {
    runtimeId: `test:${id}`,
    namespace: 'control',
    role: 'Pane',
    name: id,
    id: undefined,
    isSecure: false,
    loadId: () => {
      loads.push(id);
      return Promise.resolve();
    },
    children: () => Promise.resolve(children),
    ...(held ? { peekChildren: () => children } : {}),
    attributes: () => Promise.resolve([]),
    supportedPatterns: () => Promise.resolve([]),
    performAction: () => Promise.resolve(),
    isValid: () => Promise.resolve(true),
    invalidate: () => undefined,
  };
}

function all(node: RuntimeNode): RuntimeNode[] {
  return [node, ...(node.peekChildren() ?? []).flatMap(all)];
}

test('the nodes held below a node that defers ids are made definitive by its one loadId()', async () => {
  const loads: string[] = [];
  const leaves = ['a1', 'a2', 'b1'].map((id) => deferring(id, loads, []));
  const tree = deferring('app', loads, [
    deferring('a', loads, leaves.slice(0, 2)),
    deferring('b', loads, leaves.slice(2)),
  ]);
  const root = new RuntimeNode(owner, tree, undefined, 'Test');
  const nodes = all(root);
  assert.equal(nodes.length, 6);
  assert.ok(nodes.every((node) => !node.idDefinitive));
  await loadHeldIds([root]);
  assert.deepEqual(loads, ['app']);
  assert.ok(nodes.every((node) => node.idDefinitive));
});

test('a budget and stopBelow leave nodes out; a node not held below asks for its own id', async () => {
  const loads: string[] = [];
  const inner = deferring('inner', loads, []);
  const tree = deferring('app', loads, [deferring('a', loads, [inner]), deferring('b', loads, [])]);
  const root = new RuntimeNode(owner, tree, undefined, 'Test');
  const [a, b] = root.peekChildren()!;
  await loadHeldIds([root], { stopBelow: (node) => node === a });
  assert.deepEqual(loads, ['app']);
  assert.ok(a!.idDefinitive && b!.idDefinitive);
  const [innerNode] = a!.peekChildren()!;
  assert.equal(innerNode!.idDefinitive, false);
  await loadHeldIds([innerNode!], { budget: 1 });
  assert.deepEqual(loads, ['app', 'inner']);
  assert.ok(innerNode!.idDefinitive);
  const fresh = new RuntimeNode(owner, deferring('other', loads, [deferring('x', loads, [])]), undefined, 'Test');
  await loadHeldIds([fresh], { budget: 1 });
  assert.equal(fresh.peekChildren()![0]!.idDefinitive, false);
});
