import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryApi, type MemoryNode } from '../api/memory-api.js';
import { nodeLabel } from '../api/types.js';
import { createTreeStore } from '../stores/tree-store.js';

function sampleTree(): MemoryNode {
  return {
    id: 'desktop',
    role: 'Desktop',
    name: 'Desktop',
    children: [
      {
        id: 'app',
        role: 'Application',
        namespace: 'app',
        name: 'demo',
        children: [
          {
            id: 'win',
            role: 'Window',
            name: 'Main',
            children: [
              { id: 'ok', role: 'Button', name: 'OK', patterns: ['Element', 'Activatable'] },
              { id: 'cancel', role: 'Button', name: 'Cancel', patterns: ['Element', 'Activatable'] },
              {
                id: 'list',
                role: 'List',
                name: 'Items',
                children: [
                  { id: 'i1', role: 'ListItem', namespace: 'item', name: 'One' },
                  { id: 'i2', role: 'ListItem', namespace: 'item', name: 'Two' },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
}

async function setup() {
  const api = new MemoryApi(sampleTree());
  const tree = createTreeStore(api);
  api.subscribe((event) => tree.getState().handleEvent(event));
  await tree.getState().setRoot(api.view('desktop'));
  return { api, tree };
}

const labels = (tree: Awaited<ReturnType<typeof setup>>['tree']) =>
  tree.getState().rows.map((row) => `${'  '.repeat(row.level - 1)}${nodeLabel(row.node)}`);

test('the root is expanded and its children load lazily, one level at a time', async () => {
  const { api, tree } = await setup();
  assert.deepEqual(labels(tree), ['Desktop "Desktop"', '  app:Application "demo"']);
  assert.deepEqual(api.calls, ['children desktop']);
  const app = tree.getState().rows[1]!;
  assert.equal(app.expanded, false, 'an unloaded node with children is collapsed, not a leaf');
  assert.equal(app.level, 2);
  await tree.getState().expand('app');
  await tree.getState().expand('win');
  assert.deepEqual(labels(tree), [
    'Desktop "Desktop"',
    '  app:Application "demo"',
    '    Window "Main"',
    '      Button "OK"',
    '      Button "Cancel"',
    '      List "Items"',
  ]);
  const ok = tree.getState().rows[3]!;
  assert.equal(ok.expanded, undefined, 'a leaf has no expanded state');
  assert.equal(ok.posInSet, 1);
  assert.equal(ok.setSize, 3);
  assert.deepEqual(api.calls, ['children desktop', 'children app', 'children win']);
});

test('keyboard navigation: arrows, Home/End, PageUp/PageDown, left to parent, * expands below', async () => {
  const { tree } = await setup();
  const key = (k: string, page?: number) => tree.getState().key(k, page);
  const selected = () => tree.getState().selectedId;
  await key('ArrowDown');
  assert.equal(selected(), 'desktop');
  await key('ArrowDown');
  assert.equal(selected(), 'app');
  await key('ArrowRight');
  assert.equal(tree.getState().rows[1]!.expanded, true, 'right expands a collapsed node');
  await key('ArrowRight');
  assert.equal(selected(), 'win', 'right on an expanded node goes to its first child');
  await key('*');
  assert.equal(tree.getState().expanded.has('list'), true, '* expands every node below');
  assert.equal(tree.getState().rows.length, 8);
  await key('End');
  assert.equal(selected(), 'i2');
  await key('ArrowLeft');
  assert.equal(selected(), 'list', 'left on a leaf goes to the parent');
  await key('ArrowLeft');
  assert.equal(tree.getState().expanded.has('list'), false, 'left on an expanded node collapses it');
  await key('Home');
  assert.equal(selected(), 'desktop');
  await key('PageDown', 3);
  assert.equal(selected(), 'ok');
  await key('PageUp', 10);
  assert.equal(selected(), 'desktop');
  assert.equal(await key('x'), false, 'other keys are not handled');
});

test('the filter keeps matching loaded nodes and their ancestors', async () => {
  const { tree } = await setup();
  await tree.getState().expandAll('desktop');
  tree.getState().collapse('list');
  tree.getState().setFilter('two');
  assert.deepEqual(labels(tree), [
    'Desktop "Desktop"',
    '  app:Application "demo"',
    '    Window "Main"',
    '      List "Items"',
    '        item:ListItem "Two"',
  ]);
  tree.getState().setFilter('');
  assert.equal(tree.getState().rows.length, 6, 'without a filter the collapsed list hides its items again');
});

test('tree-changed events reload the parent and keep expansion and selection', async () => {
  const { api, tree } = await setup();
  await tree.getState().expandAll('desktop');
  tree.getState().select('i2');
  api.add('list', { id: 'i3', role: 'ListItem', namespace: 'item', name: 'Three' });
  api.rename('ok', 'Okay');
  await tree.getState().settle();
  assert.deepEqual(labels(tree), [
    'Desktop "Desktop"',
    '  app:Application "demo"',
    '    Window "Main"',
    '      Button "Okay"',
    '      Button "Cancel"',
    '      List "Items"',
    '        item:ListItem "One"',
    '        item:ListItem "Two"',
    '        item:ListItem "Three"',
  ]);
  assert.equal(tree.getState().selectedId, 'i2');
  assert.equal(tree.getState().rows[tree.getState().selectedIndex]!.id, 'i2');
  assert.equal(tree.getState().expanded.has('list'), true);
});

test('a removed node is marked stale at once and leaves the tree when its parent reloads', async () => {
  const { api, tree } = await setup();
  await tree.getState().expandAll('desktop');
  tree.getState().select('cancel');
  api.remove('cancel');
  assert.equal(tree.getState().nodes.get('cancel')?.stale, true, 'stale before the reload');
  await tree.getState().settle();
  assert.equal(
    tree.getState().rows.some((row) => row.id === 'cancel'),
    false,
  );
  assert.equal(tree.getState().selectedId, 'cancel', 'the selection stays, so the details can say it is stale');
  assert.equal(tree.getState().nodes.get('cancel')?.stale, true);
});

test('a whole-tree invalidation reloads every expanded node', async () => {
  const { api, tree } = await setup();
  await tree.getState().expandAll('desktop');
  const before = api.calls.length;
  api.emit({ type: 'tree-changed', kind: 'TreeInvalidated' });
  await tree.getState().settle();
  const reloaded = api.calls.slice(before).sort();
  assert.deepEqual(reloaded, ['children app', 'children desktop', 'children list', 'children win']);
  assert.equal(tree.getState().rows.length, 8);
});

test('reveal loads and expands the path, selects the node and asks the view to scroll to it', async () => {
  const { tree } = await setup();
  await tree.getState().reveal('i1');
  const state = tree.getState();
  assert.equal(state.selectedId, 'i1');
  assert.equal(state.rows[state.selectedIndex]?.id, 'i1');
  assert.equal(state.scrollRequest?.id, 'i1');
  assert.ok(['app', 'win', 'list'].every((id) => state.expanded.has(id)));
});

test('100,000 expanded rows flatten quickly enough to scroll', async () => {
  const rows: MemoryNode[] = Array.from({ length: 100_000 }, (_, i) => ({
    id: `r${i}`,
    role: 'Row',
    name: `Row ${i}`,
  }));
  const api = new MemoryApi({
    id: 'desktop',
    role: 'Desktop',
    children: [{ id: 'table', role: 'Table', children: rows }],
  });
  const tree = createTreeStore(api);
  await tree.getState().setRoot(api.view('desktop'));
  await tree.getState().expand('table');
  assert.equal(tree.getState().rows.length, 100_002);
  tree.getState().select('r99999');
  await tree.getState().key('ArrowUp');
  assert.equal(tree.getState().selectedId, 'r99998');
});

test('a new application (an added node without a parent) reloads the desktop, now and once more later', async () => {
  const { api, tree } = await setup();
  api.addTopLevel({ id: 'app2', role: 'Application', namespace: 'app', name: 'second' });
  await tree.getState().settle();
  assert.deepEqual(labels(tree), ['Desktop "Desktop"', '  app:Application "demo"', '  app:Application "second"']);
  assert.equal(api.calls.filter((c) => c === 'children desktop').length, 3, 'initial load, reload, follow-up');
});
