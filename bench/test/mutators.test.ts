import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  absolutePath,
  buildLocatorTree,
  LocatorXdmTree,
  selectNodes,
  type LocatorTree,
} from '../../shared/locators/index.js';
import { mockLocatorTree, MUTATIONS, protectedKeys, syntheticTree, twinsOf } from '../locator-trees.js';

function mutation(name: string) {
  const found = MUTATIONS.find((m) => m.name === name);
  assert.ok(found, name);
  return found;
}

function keysOf(tree: LocatorTree): string[] {
  return tree.nodes.map((n) => n.key);
}

test('rows inserted above: every container gets a new first child, nothing else changes', () => {
  const tree = mockLocatorTree();
  const mutated = mutation('rows-inserted').apply(tree);
  const list = mutated.nodes.find((n) => n.key === 'mock:list-results')!;
  assert.equal(list.children.length, 4);
  assert.match(list.children[0]!.key, /^inserted-/);
  assert.equal(list.children[0]!.role, 'ListItem');
  // A new row looks like the others (their attributes), with a name of its own and no Id or runtime id.
  assert.equal(list.children[0]!.attributes.get('IsSelected'), 'false');
  assert.match(list.children[0]!.name, /^Inserted /);
  assert.equal(list.children[0]!.attributes.has('RuntimeId'), false);
  assert.equal(list.children[0]!.attributes.has('Text'), false);
  for (const key of keysOf(tree)) assert.ok(keysOf(mutated).includes(key));
  // The original is untouched.
  assert.equal(tree.nodes.find((n) => n.key === 'mock:list-results')!.children.length, 3);
  // An absolute path of the old tree now points at another node.
  const target = tree.nodes.find((n) => n.key === 'mock:listitem-1')!;
  const selected = selectNodes(new LocatorXdmTree(mutated), absolutePath(tree, target));
  assert.notDeepEqual(
    selected.map((n) => n.key),
    ['mock:listitem-1'],
  );
});

test('siblings reordered, unrelated renamed, window titles changed, everything moved', () => {
  const tree = mockLocatorTree();
  const reordered = mutation('siblings-reordered').apply(tree);
  const results = reordered.nodes.find((n) => n.key === 'mock:list-results')!;
  assert.deepEqual(
    results.children.map((c) => c.key),
    ['mock:listitem-3', 'mock:listitem-2', 'mock:listitem-1'],
  );

  const target = tree.nodes.find((n) => n.key === 'mock:button-preferences-ok')!;
  const renamed = mutation('unrelated-renamed').apply(tree, target);
  const byKey = (t: LocatorTree, key: string) => t.nodes.find((n) => n.key === key)!;
  assert.equal(byKey(renamed, 'mock:button-preferences-ok').name, 'OK');
  assert.equal(byKey(renamed, 'mock:window-preferences').name, 'Preferences');
  assert.equal(byKey(renamed, 'mock:button-save').name, 'Save (renamed)');
  assert.equal(byKey(renamed, 'mock:button-save').attributes.get('Name'), 'Save (renamed)');
  // The target's own content is not "unrelated": renaming it is its own (separate) family.
  const pane = tree.nodes.find((n) => n.key === 'mock:pane-toolbar')!;
  assert.deepEqual(protectedKeys(pane).has('mock:button-save'), true);
  assert.equal(byKey(mutation('unrelated-renamed').apply(tree, pane), 'mock:button-save').name, 'Save');
  const content = mutation('content-renamed');
  assert.equal(content.separate, true);
  const inside = content.apply(tree, pane);
  assert.equal(byKey(inside, 'mock:button-save').name, 'Save (renamed)');
  assert.equal(byKey(inside, 'mock:button-preferences-ok').name, 'OK');
  assert.equal(byKey(inside, 'mock:window-studio').name, 'Studio - demo');

  const titled = mutation('window-titles-changed').apply(tree);
  assert.equal(byKey(titled, 'mock:window-studio').name, '*Studio - demo');
  assert.equal(byKey(titled, 'mock:window-preferences').name, 'Preferences (Not Responding)');
  assert.equal(byKey(titled, 'mock:window-login').attributes.get('Name'), 'Sign in - edited');
  assert.equal(byKey(titled, 'mock:button-save').name, 'Save');
  assert.ok(!mutation('window-titles-changed').separate);

  // The distinguishing part of the title is replaced; reported on its own.
  const replaced = mutation('window-titles-replaced');
  assert.equal(replaced.separate, true);
  const other = replaced.apply(tree);
  assert.equal(byKey(other, 'mock:window-studio').name, 'Studio - Untitled 1');
  assert.equal(byKey(other, 'mock:window-preferences').name, 'Untitled 2');

  const moved = mutation('everything-moved').apply(tree);
  assert.equal(JSON.parse(byKey(moved, 'mock:button-save').attributes.get('Bounds')!).x, 337);
  const window = byKey(moved, 'mock:window-preferences');
  assert.equal(window.children.length, 1);
  assert.equal(window.children[0]!.role, 'Pane');
  assert.equal(byKey(moved, 'mock:button-preferences-ok').parent, window.children[0]);
});

test('the synthetic tree has the requested size and is deterministic', () => {
  const a = syntheticTree(2000);
  const b = syntheticTree(2000);
  assert.ok(a.nodes.length >= 2000 && a.nodes.length < 3000, String(a.nodes.length));
  assert.deepEqual(
    a.nodes.map((n) => n.name),
    b.nodes.map((n) => n.name),
  );
});

test('twins: nodes only their position tells apart are found, in the mutated tree as in the original', () => {
  const stable = (key: string) => key !== 'RuntimeId' && key !== 'Bounds';
  const tree = mockLocatorTree();
  assert.ok([...twinsOf(tree, stable).values()].every((count) => count === 0));
  const leaf = (key: string, name = '') => ({ namespace: 'control' as const, role: 'Text', name, key });
  const grid = buildLocatorTree([
    {
      namespace: 'control',
      role: 'Window',
      name: 'Grid',
      key: 'win',
      children: [leaf('a'), leaf('b'), leaf('c', 'Label')],
    },
  ]);
  const twins = twinsOf(grid, stable);
  assert.equal(twins.get('a'), 1);
  assert.equal(twins.get('b'), 1);
  assert.equal(twins.get('c'), 0);
});
