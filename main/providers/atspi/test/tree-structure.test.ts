import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CacheItem, ObjectRef, TreeEntry } from '../atspi-calls.js';
import { parseCacheItem } from '../atspi-calls.js';
import { MAX_CHILDREN, structureFromCache, structureFromTree } from '../tree-loader.js';

const ref = (path: string): ObjectRef => [':1.5', path];
const root = ref('/org/a11y/atspi/accessible/root');
const keyOf = (r: ObjectRef) => `atspi://${r[0]}${r[1]}`;
const entry = (path: string, childCount: number): TreeEntry => {
  const r = path === 'root' ? root : ref(`/o/${path}`);
  return { ref: r, key: keyOf(r), properties: { ChildCount: childCount, Name: path } };
};

test('GetTree pre-order with child counts rebuilds the ordered structure', () => {
  const { structure, problem } = structureFromTree(
    [entry('root', 2), entry('a', 2), entry('a1', 0), entry('a2', 0), entry('b', 1), entry('b1', 0)],
    root,
  );
  assert.equal(problem, undefined);
  assert.ok(structure);
  assert.deepEqual(structure.get('atspi://:1.5/org/a11y/atspi/accessible/root')?.children, [
    'atspi://:1.5/o/a',
    'atspi://:1.5/o/b',
  ]);
  assert.deepEqual(structure.get('atspi://:1.5/o/a')?.children, ['atspi://:1.5/o/a1', 'atspi://:1.5/o/a2']);
  assert.equal(structure.get('atspi://:1.5/o/b1')?.parentKey, 'atspi://:1.5/o/b');
});

test('inconsistent GetTree answers are rejected, not trusted', () => {
  assert.match(structureFromTree([entry('root', 3), entry('a', 0)], root).problem ?? '', /fewer nodes/);
  assert.match(structureFromTree([entry('root', 2), entry('a', 0), entry('a', 0)], root).problem ?? '', /cycle/);
  assert.match(structureFromTree([entry('root', MAX_CHILDREN + 1)], root).problem ?? '', /absurd/);
  assert.match(structureFromTree([entry('a', 0)], root).problem ?? '', /root/);
});

const item = (path: string, parent: string, index: number, childCount: number): CacheItem => ({
  ref: path === 'root' ? root : ref(`/o/${path}`),
  key: keyOf(path === 'root' ? root : ref(`/o/${path}`)),
  parent: parent === 'root' ? root : parent === '' ? ['', '/org/a11y/atspi/null'] : ref(`/o/${parent}`),
  indexInParent: index,
  childCount,
  children: undefined,
  interfaces: ['org.a11y.atspi.Accessible'],
  name: path,
  role: 39,
  description: '',
  states: [0, 0],
});

test('a complete cache gives structure ordered by index in parent', () => {
  const structure = structureFromCache(
    [item('root', '', -1, 2), item('b', 'root', 1, 0), item('a', 'root', 0, 1), item('a1', 'a', 0, 0)],
    root,
  );
  assert.ok(structure);
  assert.deepEqual(structure.get('atspi://:1.5/org/a11y/atspi/accessible/root')?.children, [
    'atspi://:1.5/o/a',
    'atspi://:1.5/o/b',
  ]);
});

test('a partial cache is never trusted for structure', () => {
  // a says it has 2 children, the cache holds one.
  assert.equal(
    structureFromCache([item('root', '', -1, 1), item('a', 'root', 0, 2), item('a1', 'a', 0, 0)], root),
    undefined,
  );
  // Two children claiming the same place (a stale object), beside the count being right.
  assert.equal(
    structureFromCache([item('root', '', -1, 2), item('a', 'root', 0, 0), item('b', 'root', 0, 0)], root),
    undefined,
  );
  // A child listed with a negative index.
  assert.equal(structureFromCache([item('root', '', -1, 1), item('a', 'root', -1, 0)], root), undefined);
});

test('indices beyond the child count order the children when every child is there (GTK 4 notebook pages)', () => {
  // GTK 4: a notebook page (cc 1) holds its content, which reports index 1 (its place among widget siblings).
  const structure = structureFromCache(
    [
      item('root', '', -1, 1),
      item('pages', 'root', 0, 2),
      item('tab2', 'pages', 1, 1),
      item('tab1', 'pages', 0, 1),
      item('content1', 'tab1', 1, 0),
      item('content2', 'tab2', 1, 0),
    ],
    root,
  );
  assert.ok(structure);
  assert.deepEqual(structure.get('atspi://:1.5/o/pages')?.children, ['atspi://:1.5/o/tab1', 'atspi://:1.5/o/tab2']);
  assert.deepEqual(structure.get('atspi://:1.5/o/tab1')?.children, ['atspi://:1.5/o/content1']);
  assert.equal(structure.get('atspi://:1.5/o/content2')?.parentKey, 'atspi://:1.5/o/tab2');
  // GTK 4's cache item of the application root says it has no children: the root's own ChildCount is used.
  const gtk4Root = [item('root', '', -1, 0), item('frame', 'root', 0, 1), item('pane', 'frame', 0, 0)];
  assert.equal(structureFromCache(gtk4Root, root), undefined);
  assert.deepEqual(
    structureFromCache(gtk4Root, root, 1)?.get('atspi://:1.5/org/a11y/atspi/accessible/root')?.children,
    ['atspi://:1.5/o/frame'],
  );
  // Gaps order by index too.
  const gap = structureFromCache([item('root', '', -1, 2), item('b', 'root', 5, 0), item('a', 'root', 2, 0)], root);
  assert.deepEqual(gap?.get('atspi://:1.5/org/a11y/atspi/accessible/root')?.children, [
    'atspi://:1.5/o/a',
    'atspi://:1.5/o/b',
  ]);
});

test("a cache without some of the root's children is not trusted (Chromium's extra frames)", () => {
  // Chromium: the root counts 3 children; its extra empty frames have no parent and index -1 in the cache, or are
  // not in it at all.
  const items = [
    item('root', '', -1, 3),
    item('w1', 'root', 0, 1),
    item('d1', 'w1', 0, 0),
    item('w2', '', -1, 1),
    item('p2', 'w2', 0, 0),
  ];
  assert.equal(structureFromCache(items, root, 3), undefined);
});

test('both cache item signatures parse', () => {
  const current = parseCacheItem([
    [':1.5', '/o/a'],
    [':1.5', '/org/a11y/atspi/accessible/root'],
    [':1.5', '/org/a11y/atspi/accessible/root'],
    0,
    3,
    ['org.a11y.atspi.Accessible'],
    'Name',
    43,
    'Desc',
    [256, 0],
  ]);
  assert.equal(current?.indexInParent, 0);
  assert.equal(current?.childCount, 3);
  assert.equal(current?.role, 43);
  const older = parseCacheItem([
    [':1.5', '/o/a'],
    [':1.5', '/org/a11y/atspi/accessible/root'],
    [':1.5', '/org/a11y/atspi/accessible/root'],
    [
      [':1.5', '/o/c1'],
      [':1.5', '/o/c2'],
    ],
    ['org.a11y.atspi.Accessible'],
    'Name',
    43,
    'Desc',
    [256, 0],
  ]);
  assert.equal(older?.indexInParent, undefined);
  assert.equal(older?.childCount, 2);
  assert.equal(older?.name, 'Name');
  assert.equal(parseCacheItem('nonsense'), undefined);
});
