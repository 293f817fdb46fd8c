// The tree store over the protocol client, against the real dispatcher on the mock provider.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { InspectorClient } from '../../shared/api/client.js';
import { nodeLabel } from '../model/labels.js';
import { createTreeStore, type TreeStore } from '../stores/tree-store.js';
import { connectedHost, writeTableTree } from './support/host.js';

/** Counts the `children` requests per node. */
function countChildren(client: InspectorClient): string[] {
  const calls: string[] = [];
  const children = client.children;
  client.children = (runtimeId, range) => {
    calls.push(runtimeId);
    return children(runtimeId, range);
  };
  return calls;
}

async function setup(t: { after(fn: () => void | Promise<void>): void }, options = {}) {
  const { host, client } = await connectedHost(t, options);
  const calls = countChildren(client);
  const tree = createTreeStore(client);
  client.onAny((event) => tree.getState().handleEvent(event));
  const { node } = await client.desktop();
  await tree.getState().setRoot(node);
  return { host, client, tree, calls };
}

const labels = (tree: TreeStore) =>
  tree.getState().rows.map((row) => `${'  '.repeat(row.level - 1)}${nodeLabel(row.node)}`);

const DESKTOP = 'platynui:Desktop';

test('the root is expanded and its children load lazily, one level at a time', async (t) => {
  const { tree, calls } = await setup(t);
  assert.deepEqual(labels(tree).slice(1), ['  app:Application "Studio"', '  app:Application "Login"']);
  await tree.getState().expand('mock:app-studio');
  await tree.getState().expand('mock:window-preferences');
  assert.deepEqual(labels(tree).slice(1), [
    '  app:Application "Studio"',
    '    Window "Studio - demo"',
    '    Window "Preferences"',
    '      Button "OK"',
    '      Button "Cancel"',
    '  app:Application "Login"',
  ]);
  const ok = tree.getState().rows[4]!;
  assert.equal(ok.expanded, false, 'children not read yet: the host cannot say it is a leaf');
  assert.equal(ok.posInSet, 1);
  assert.equal(ok.setSize, 2);
  await tree.getState().expand(ok.id);
  assert.equal(tree.getState().rows[4]!.expanded, undefined, 'read and childless: a leaf');
  assert.deepEqual(calls, [DESKTOP, 'mock:app-studio', 'mock:window-preferences', ok.id]);
});

test('keyboard navigation: arrows, Home/End, PageUp/PageDown, left to parent, * expands below', async (t) => {
  const { tree } = await setup(t);
  const key = (k: string, page?: number) => tree.getState().key(k, page);
  const selected = () => tree.getState().selectedId;
  await key('ArrowDown');
  assert.equal(selected(), DESKTOP);
  await key('End');
  assert.equal(selected(), 'mock:app-login');
  await key('ArrowRight');
  assert.equal(tree.getState().rows.at(-1)!.node.name, 'Sign in', 'right expands a collapsed node');
  await key('ArrowRight');
  assert.equal(selected(), 'mock:window-login', 'right on an expanded node goes to its first child');
  await key('*');
  assert.deepEqual(labels(tree).slice(-4), [
    '      Edit "User"',
    '      PasswordText "Password"',
    '      Button "OK"',
    '      Slider "Volume"',
  ]);
  await key('End');
  assert.equal(selected(), 'mock:slider-broken');
  await key('ArrowLeft');
  assert.equal(selected(), 'mock:window-login', 'left on a leaf goes to the parent');
  await key('ArrowLeft');
  assert.equal(tree.getState().expanded.has('mock:window-login'), false, 'left on an expanded node collapses it');
  await key('Home');
  assert.equal(selected(), DESKTOP);
  await key('PageDown', 2);
  assert.equal(selected(), 'mock:app-login');
  await key('PageUp', 10);
  assert.equal(selected(), DESKTOP);
  assert.equal(await key('x'), false, 'other keys are not handled');
});

test('the filter keeps matching loaded nodes and their ancestors', async (t) => {
  const { tree } = await setup(t);
  await tree.getState().expandAll('mock:app-login');
  tree.getState().collapse('mock:window-login');
  tree.getState().setFilter('volume');
  assert.deepEqual(labels(tree), [
    'Desktop "Mock Desktop"',
    '  app:Application "Login"',
    '    Window "Sign in"',
    '      Slider "Volume"',
  ]);
  tree.getState().setFilter('');
  assert.deepEqual(
    labels(tree).slice(2),
    ['  app:Application "Login"', '    Window "Sign in"'],
    'unfiltered, the collapsed window hides its children again',
  );
});

test('a closed window is marked stale at once and leaves the tree when its parent reloads; the rest stays', async (t) => {
  const { client, tree } = await setup(t);
  await tree.getState().expand('mock:app-studio');
  await tree.getState().expand('mock:window-preferences');
  tree.getState().select('mock:button-preferences-ok');
  const window = await client.node('mock:window-preferences');
  const seen = new Promise<void>((resolve) => {
    const off = client.on('tree.changed', () => {
      off();
      resolve();
    });
  });
  await client.action(window.runtimeId, window.revision, 'close');
  await seen;
  assert.equal(tree.getState().nodes.get('mock:window-preferences')?.stale, true, 'stale before the reload');
  await tree.getState().settle();
  assert.deepEqual(labels(tree).slice(1), [
    '  app:Application "Studio"',
    '    Window "Studio - demo"',
    '  app:Application "Login"',
  ]);
  assert.equal(tree.getState().selectedId, 'mock:button-preferences-ok', 'the selection stays, marked stale');
  assert.equal(tree.getState().nodes.get('mock:button-preferences-ok')?.stale, true);
  assert.equal(tree.getState().expanded.has('mock:app-studio'), true);
});

test('a whole-tree invalidation reloads every expanded node', async (t) => {
  const { host, tree, calls } = await setup(t);
  await tree.getState().expandAll('mock:app-login');
  const before = calls.length;
  host.provider.emit({ kind: 'TreeInvalidated' });
  await new Promise((resolve) => setTimeout(resolve, 200));
  await tree.getState().settle();
  // Expand-all's leaves (known childless, never expanded) are not asked again: only the expanded lists are.
  assert.deepEqual(calls.slice(before).sort(), ['mock:app-login', 'mock:window-login', DESKTOP]);
  assert.deepEqual([...tree.getState().errors], [], 'every reload found its node');
  assert.equal(tree.getState().rows.length, 8);
});

test('reveal loads and expands the path from the host, selects the node and asks the view to scroll to it', async (t) => {
  const { client, tree } = await setup(t);
  const found = await client.evaluate("//item:TreeItem[@Name='main.ts']").done;
  assert.equal(found.count, 1);
  await tree.getState().reveal('mock:treeitem-main');
  const state = tree.getState();
  assert.equal(state.selectedId, 'mock:treeitem-main');
  assert.equal(state.rows[state.selectedIndex]?.id, 'mock:treeitem-main');
  assert.equal(state.scrollRequest?.id, 'mock:treeitem-main');
  assert.ok(
    ['mock:app-studio', 'mock:window-studio', 'mock:tree-project', 'mock:treeitem-src'].every((id) =>
      state.expanded.has(id),
    ),
  );
});

test('a new application (an added node without a parent) reloads the desktop, now and once more later', async (t) => {
  const { host, tree, calls } = await setup(t);
  host.provider.emit({ kind: 'NodeAdded', runtimeId: 'mock:app-new' });
  await new Promise((resolve) => setTimeout(resolve, 200));
  await tree.getState().settle();
  assert.equal(calls.filter((id) => id === DESKTOP).length, 3, 'initial load, reload, follow-up');
});

test('a node with 20,000 children loads page by page and scrolls by keyboard', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-rows-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { tree, calls } = await setup(t, { mockFile: writeTableTree(dir, 20_000) });
  await tree.getState().expand('mock:app-big');
  await tree.getState().expand('mock:window-big');
  await tree.getState().expand('mock:table');
  assert.equal(tree.getState().rows.length, 20_004);
  assert.equal(calls.filter((id) => id === 'mock:table').length, 10, 'pages of 2,000');
  tree.getState().select('mock:row-19999');
  await tree.getState().key('ArrowUp');
  assert.equal(tree.getState().selectedId, 'mock:row-19998');
});

test('expand-all is one subtree request and one commit of rows, however large the subtree', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-rows-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { client, tree, calls } = await setup(t, { mockFile: writeTableTree(dir, 10_000) });
  const subtrees: string[] = [];
  const subtree = client.subtree;
  client.subtree = (runtimeId, maxNodes) => {
    subtrees.push(runtimeId);
    return subtree(runtimeId, maxNodes);
  };
  const before = calls.length;
  let commits = 0;
  const off = tree.subscribe((state, previous) => void (state.rows !== previous.rows && commits++));
  const count = await tree.getState().expandAll('mock:app-big');
  off();
  assert.equal(count, 10_002, 'the window, the table and its rows');
  assert.deepEqual(subtrees, ['mock:app-big']);
  assert.equal(calls.length, before, 'no children request');
  assert.equal(commits, 1);
  assert.equal(tree.getState().rows.length, 10_004);
  assert.equal(tree.getState().rows.at(-1)!.node.name, 'Row 9999');
  assert.equal(tree.getState().rows.at(-1)!.expanded, undefined, 'a row the host read as childless is a leaf');
  assert.equal(tree.getState().expandingAll, false);
});

test('expand-all stops at its cap with whole child lists: a list that would pass it stays collapsed', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-rows-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { tree } = await setup(t, { mockFile: writeTableTree(dir, 10_000) });
  const count = await tree.getState().expandAll('mock:app-big', 5_000);
  assert.equal(count, 2);
  assert.deepEqual(labels(tree).slice(1), ['  app:Application "Big"', '    Window "Big"', '      Table "Rows"']);
  assert.equal(tree.getState().rows.at(-1)!.expanded, false);
});

test('a change makes only its own rows anew: the other rows stay the same objects', async (t) => {
  const { client, tree } = await setup(t);
  await tree.getState().expand('mock:app-studio');
  await tree.getState().expand('mock:window-preferences');
  const studio = tree.getState().rows.slice(0, 6);
  await tree.getState().expand('mock:app-login');
  const after = tree.getState().rows;
  assert.equal(after.length, 8);
  assert.ok(
    studio.every((row, i) => row === after[i]),
    'the desktop row and the Studio block are untouched',
  );
  assert.equal(after[7]!.node.name, 'Sign in');

  // The Preferences window closes: its row is marked stale at once, nothing else is made anew.
  const window = await client.node('mock:window-preferences');
  const seen = new Promise<void>((resolve) => {
    const off = client.on('tree.changed', () => {
      off();
      resolve();
    });
  });
  const marked = new Promise<ReturnType<TreeStore['getState']>>((resolve) => {
    const off = tree.subscribe((state) => {
      if (state.nodes.get('mock:window-preferences')?.stale) {
        off();
        resolve(state);
      }
    });
  });
  await client.action(window.runtimeId, window.revision, 'close');
  await seen;
  const state = await marked;
  const changed = state.rows.filter((row, i) => row !== after[i]).map((row) => row.id);
  assert.deepEqual(changed, [
    'mock:window-preferences',
    'mock:button-preferences-ok',
    'mock:button-preferences-cancel',
  ]);
});
