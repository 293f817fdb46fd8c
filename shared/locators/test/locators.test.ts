import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MOCK_TREE } from '../../../main/providers/mock/default-tree.js';
import { readSnapshotXml } from '../../snapshot/xml-reader.js';
import {
  buildLocatorTree,
  isVolatileValue,
  LocatorGenerator,
  locatorCandidates,
  LocatorIndex,
  proposeLocators,
  proposeXPaths,
  locatorTreeFromSnapshot,
  titleParts,
  selectNodes,
  xpathString,
  type LocatorNode,
  type LocatorNodeInit,
  type LocatorTree,
} from '../index.js';

function mockTree(): LocatorTree {
  return locatorTreeFromSnapshot(readSnapshotXml(DEFAULT_MOCK_TREE));
}

function byKey(tree: LocatorTree, key: string) {
  const node = tree.nodes.find((n) => n.key === key);
  assert.ok(node, key);
  return node;
}

test('every node of the mock tree gets several locators, each selecting exactly that node', () => {
  const tree = mockTree();
  const generator = new LocatorGenerator(tree);
  for (const node of tree.nodes) {
    const locators = generator.generate(node);
    assert.ok(locators.length >= 1, `no locator for ${node.key}`);
    for (const locator of locators) {
      const selected = selectNodes(generator.xdm, locator.xpath);
      assert.deepEqual(
        selected.map((n) => n.key),
        [node.key],
        locator.xpath,
      );
      assert.equal(locator.matches, 1);
      assert.ok(locator.score >= 1 && locator.score <= 100);
      assert.ok(locator.reason.length > 0);
      assert.ok(!/Bounds|ActivationPoint|RuntimeId|IsFocused|ProcessId/.test(locator.xpath), locator.xpath);
    }
    const scores = locators.map((l) => l.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
      `best first for ${node.key}`,
    );
  }
  const named = generator.generate(byKey(tree, 'mock:treeitem-main'));
  assert.ok(named.length >= 2);
});

test('the developer Id comes first', () => {
  const tree = mockTree();
  const generator = new LocatorGenerator(tree);
  for (const key of ['mock:button-toolbar-ok', 'mock:tree-project', 'mock:edit-user', 'mock:window-studio']) {
    const [first] = generator.generate(byKey(tree, key));
    assert.equal(first?.strategy, 'id', key);
    assert.match(first!.xpath, /@Id='/);
  }
  assert.equal(generator.generate(byKey(tree, 'mock:button-toolbar-ok'))[0]!.xpath, "//Button[@Id='toolbar-ok']");
});

test('duplicate names are scoped by their window or application, unique names by role and name', () => {
  const tree = mockTree();
  const generator = new LocatorGenerator(tree);
  const preferencesOk = generator.generate(byKey(tree, 'mock:button-preferences-ok'));
  assert.equal(preferencesOk[0]!.strategy, 'scoped');
  // The stable part of the title (here all of it), so "*Preferences" or "Preferences (Not Responding)" still match.
  assert.equal(preferencesOk[0]!.xpath, "//Window[contains(@Name,'Preferences')]//Button[@Name='OK']");
  const loginOk = generator.generate(byKey(tree, 'mock:button-login-ok'));
  assert.equal(loginOk[0]!.xpath, "//app:Application[@Name='Login']//Button[@Name='OK']");
  const save = generator.generate(byKey(tree, 'mock:button-save'));
  assert.equal(save[0]!.xpath, "//Button[@Name='Save']");
  assert.equal(save[0]!.strategy, 'role-name');
  // Unnamed nested panes fall back to structure, still unique.
  const nested = generator.generate(byKey(tree, 'mock:pane-nested-2'));
  assert.ok(nested.length > 0);
});

test('title parts: separators split, decorations and document numbers dropped, the application name last', () => {
  assert.deepEqual(titleParts('App 3 - Settings', 'App 3'), ['Settings', 'App 3']);
  assert.deepEqual(titleParts('*notes.txt - gedit', 'gedit'), ['notes.txt', 'gedit']);
  assert.deepEqual(titleParts('Document 3 - Editor', 'Editor'), ['Editor']);
  assert.deepEqual(titleParts('Inbox | Mail — Chromium', 'Chromium'), ['Inbox', 'Mail', 'Chromium']);
  assert.deepEqual(titleParts('Sign in'), ['Sign in']);
  assert.deepEqual(titleParts('12:03'), []);
});

test('windows that differ only by title: application scope and the stable title part rank first and survive', () => {
  const window = (app: string, title: string) => ({
    namespace: 'control' as const,
    role: 'Window',
    name: `${app} - ${title}`,
    key: `${app}-${title}`,
    children: [
      { namespace: 'control' as const, role: 'Button', name: 'OK', key: `${app}-${title}-ok` },
      { namespace: 'control' as const, role: 'Button', name: 'Cancel', key: `${app}-${title}-cancel` },
    ],
  });
  const app = (name: string, windows: string[]) => ({
    namespace: 'app' as const,
    role: 'Application',
    name,
    key: name,
    children: windows.map((title) => window(name, title)),
  });
  const build = (decorate: (title: string) => string) => {
    const tree = buildLocatorTree([app('Alpha', ['Settings', 'Report']), app('Beta', ['Settings', 'Report'])]);
    for (const node of tree.nodes)
      if (node.role === 'Window') {
        const name = decorate(node.name);
        (node as { name: string }).name = name;
        (node.attributes as Map<string, string>).set('Name', name);
      }
    return tree;
  };
  const tree = build((title) => title);
  const generator = new LocatorGenerator(tree);
  const [best] = generator.generate(byKey(tree, 'Alpha-Settings-ok'));
  assert.equal(best!.xpath, "//app:Application[@Name='Alpha']//Window[contains(@Name,'Settings')]//Button[@Name='OK']");
  assert.equal(best!.strategy, 'scoped');
  const [window0] = generator.generate(byKey(tree, 'Alpha-Report'));
  assert.equal(window0!.xpath, "//app:Application[@Name='Alpha']//Window[contains(@Name,'Report')]");
  // The title gets a modified marker and a status suffix: the best locators still find the same nodes.
  const changed = new LocatorGenerator(build((title) => `*${title} (Not Responding)`));
  for (const key of ['Alpha-Settings-ok', 'Beta-Report-cancel', 'Alpha-Report']) {
    const [locator] = generator.generate(byKey(tree, key));
    assert.deepEqual(
      selectNodes(changed.xdm, locator!.xpath).map((node) => node.key),
      [key],
      locator!.xpath,
    );
  }
});

test('the only window of an application is found by the application first, then by its title', () => {
  const tree = mockTree();
  const generator = new LocatorGenerator(tree);
  // The title of an application's only window follows its document or selection; the application does not.
  const login = generator.generate(byKey(tree, 'mock:window-login'));
  assert.equal(login[0]!.xpath, "//app:Application[@Name='Login']/Window");
  assert.equal(login[0]!.strategy, 'scoped');
  assert.match(login[0]!.reason, /the only Window of app:Application "Login"/);
  // The stable part of the title is the next alternative (it survives the application opening a second window).
  assert.equal(login[1]!.xpath, "//Window[contains(@Name,'Sign in')]");
  assert.equal(login[1]!.strategy, 'title');
  // A window with a sibling window is not taken for the only one.
  const preferences = generator.generate(byKey(tree, 'mock:window-preferences'));
  assert.equal(preferences[0]!.xpath, "//Window[contains(@Name,'Preferences')]");
});

test('unnamed containers are known by a grandchild when no child has an Id or a name', () => {
  const tree = mockTree();
  const generator = new LocatorGenerator(tree);
  const body = generator.generate(byKey(tree, 'mock:pane-body'));
  assert.equal(body[0]!.strategy, 'content');
  assert.match(body[0]!.xpath, /^\/\/Pane\[\*\/\w+\[@Id='/);
});

test('names with quotes are quoted correctly', () => {
  assert.equal(xpathString('plain'), "'plain'");
  assert.equal(xpathString("it's"), `"it's"`);
  assert.equal(xpathString(`say "hi"`), `'say "hi"'`);
  assert.equal(xpathString(`it's "x"`), `'it''s "x"'`);
  const names = ["it's", 'say "hi"', `both ' and "`, 'plain'];
  const tree = buildLocatorTree([
    {
      namespace: 'app',
      role: 'Application',
      name: 'Quotes',
      key: 'app',
      children: [
        {
          namespace: 'control',
          role: 'Window',
          name: 'Main',
          key: 'win',
          children: names.flatMap((name, i) => [
            { namespace: 'control' as const, role: 'Button', name, key: `b${i}` },
            { namespace: 'control' as const, role: 'Text', name, key: `t${i}` },
          ]),
        },
      ],
    },
  ]);
  const generator = new LocatorGenerator(tree);
  for (let i = 0; i < names.length; i++) {
    const locators = generator.generate(byKey(tree, `b${i}`));
    assert.ok(locators.length > 0);
    assert.equal(locators[0]!.strategy, 'role-name', locators[0]!.xpath);
    for (const locator of locators)
      assert.deepEqual(
        selectNodes(generator.xdm, locator.xpath).map((n) => n.key),
        [`b${i}`],
      );
  }
});

test('volatile values are never used: counters, clock times, dates, ids', () => {
  for (const value of [
    '12',
    '3.5 %',
    '12:03',
    'Updated 12:03:59',
    '2026-12-01',
    '1/12/2026',
    '123456',
    '0xdeadbeef',
    '',
  ])
    assert.ok(isVolatileValue(value), value);
  for (const value of ['OK', 'Save as…', 'Row 3', 'main.ts']) assert.ok(!isVolatileValue(value), value);
  const tree = buildLocatorTree([
    {
      namespace: 'control',
      role: 'Window',
      name: 'Clock',
      key: 'win',
      children: [
        { namespace: 'control', role: 'Text', name: '12:03:59', key: 'clock' },
        { namespace: 'control', role: 'Text', name: 'Label', key: 'label' },
      ],
    },
  ]);
  const generator = new LocatorGenerator(tree);
  for (const locator of generator.generate(byKey(tree, 'clock')))
    assert.ok(!locator.xpath.includes('12:03'), locator.xpath);
});

test('the priority list and the blacklist are configurable', () => {
  const tree = mockTree();
  const noIds = new LocatorGenerator(tree, { blacklist: ['Id', 'RuntimeId', /^Bounds/, /^ActivationPoint/] });
  const first = noIds.generate(byKey(tree, 'mock:button-toolbar-ok'))[0]!;
  assert.ok(!first.xpath.includes('@Id'), first.xpath);
  const processFirst = new LocatorGenerator(tree, { priority: ['ProcessName', 'Name'] });
  const app = processFirst.propose(byKey(tree, 'mock:app-studio'));
  assert.ok(app.some((l) => l.xpath === "//app:Application[@ProcessName='studio']"));
});

test('when nothing stable tells a node apart within the budget, the absolute position is the last resort', () => {
  const cell = (row: number) => ({
    namespace: 'control' as const,
    role: 'Text',
    name: `${100000 + row}`,
    key: `cell-${row}`,
  });
  const tree = buildLocatorTree([
    { namespace: 'control', role: 'Window', name: 'Grid', key: 'win', children: [0, 1, 2].map(cell) },
  ]);
  const index = new LocatorIndex(tree, { budget: 0, maxSteps: 1 });
  const [locator, ...others] = proposeLocators(index, byKey(tree, 'cell-1'));
  assert.deepEqual(others, []);
  assert.equal(locator!.strategy, 'position');
  assert.equal(locator!.xpath, '/Window[1]/Text[2]');
  assert.deepEqual(
    selectNodes(new LocatorGenerator(tree).xdm, locator!.xpath).map((node) => node.key),
    ['cell-1'],
  );
});

/** Two applications with a table each: rows of cells holding a check box and a text, names repeating across them. */
function tablesTree(rows: number): LocatorTree {
  const row = (app: string, table: string, n: number): LocatorNodeInit => ({
    namespace: 'item',
    role: 'TableRow',
    key: `${app}-${table}-row-${n}`,
    children: [
      {
        namespace: 'item',
        role: 'TableCell',
        name: `Select item ${n}`,
        key: `${app}-${table}-cell-${n}-0`,
        children: [
          { namespace: 'control', role: 'CheckBox', name: `Select item ${n}`, key: `${app}-${table}-check-${n}` },
        ],
      },
      {
        namespace: 'item',
        role: 'TableCell',
        key: `${app}-${table}-cell-${n}-1`,
        children: [{ namespace: 'control', role: 'Text', name: `Item ${n % 7}`, key: `${app}-${table}-text-${n}` }],
      },
    ],
  });
  const table = (app: string, name: string): LocatorNodeInit => ({
    namespace: 'control',
    role: 'Table',
    name,
    key: `${app}-${name}`,
    children: Array.from({ length: rows }, (_, n) => row(app, name, n)),
  });
  const app = (name: string, tables: string[]): LocatorNodeInit => ({
    namespace: 'app',
    role: 'Application',
    name,
    key: name,
    children: [
      {
        namespace: 'control',
        role: 'Window',
        name: `${name} - Data`,
        key: `${name}-window`,
        children: [
          { namespace: 'control', role: 'Pane', key: `${name}-pane`, children: tables.map((t) => table(name, t)) },
        ],
      },
    ],
  });
  return buildLocatorTree([app('Sheets', ['Data', 'Totals']), app('Viewer', ['Data'])]);
}

test('a search for one locator spends at most budgetAfterFirst more counts once it holds a unique candidate', () => {
  class Counting extends LocatorIndex {
    counts = 0;
    override selected(xpath: string, count: () => readonly LocatorNode[]): readonly LocatorNode[] {
      this.counts++;
      return super.selected(xpath, count);
    }
  }
  let boundedSpent = 0;
  let plainSpent = 0;
  for (const tree of [mockTree(), tablesTree(8)]) {
    const plain = new Counting(tree, { maxResults: 1 });
    const bounded = new Counting(tree, { maxResults: 1, budgetAfterFirst: 5 });
    const xdm = new LocatorGenerator(tree).xdm;
    for (const node of tree.nodes) {
      const before = bounded.counts;
      const [best] = proposeXPaths(bounded, node);
      assert.ok(best, node.key);
      assert.deepEqual(
        selectNodes(xdm, best).map((n) => n.key),
        [node.key],
        best,
      );
      const plainBefore = plain.counts;
      locatorCandidates(plain, node);
      assert.ok(bounded.counts - before <= plain.counts - plainBefore, node.key);
    }
    boundedSpent += bounded.counts;
    plainSpent += plain.counts;
  }
  // Nodes told apart only by long paths (the tables' unnamed cells) stop early.
  assert.ok(boundedSpent < plainSpent, `${boundedSpent} counts against ${plainSpent}`);
});

test('a search that skips counting refinements of a path whose first step selects its node alone finds the same', () => {
  // Such refinements select what the path selects (selectsItsNodeAlone); an index that counts every one of them
  // must propose the same candidates in the same order, for every node and with one result or several.
  class CountingEveryCandidate extends LocatorIndex {
    override selectsItsNodeAlone(): boolean {
      return false;
    }
  }
  for (const tree of [mockTree(), tablesTree(8)]) {
    for (const config of [{}, { maxResults: 1 }]) {
      const index = new LocatorIndex(tree, config);
      const reference = new CountingEveryCandidate(tree, config);
      for (const node of tree.nodes) {
        assert.deepEqual(
          locatorCandidates(index, node).map((candidate) => candidate.xpath),
          locatorCandidates(reference, node).map((candidate) => candidate.xpath),
          node.key,
        );
      }
    }
  }
});

test('a step selects its node alone only when no other node passes its test', () => {
  const tree = tablesTree(3);
  const index = new LocatorIndex(tree);
  const step = (key: string, preds: string[] = []) => ({
    node: byKey(tree, key),
    axis: '//' as const,
    role: true,
    preds,
    position: false,
  });
  assert.equal(index.selectsItsNodeAlone(step('Sheets-Totals', ['Name'])), true);
  assert.equal(index.selectsItsNodeAlone(step('Sheets-Totals')), false);
  assert.equal(index.selectsItsNodeAlone(step('Sheets-pane')), false);
  assert.equal(index.selectsItsNodeAlone(step('Sheets-Data', ['Name'])), false);
  assert.equal(index.selectsItsNodeAlone(step('Sheets-Totals-check-1', ['Name'])), false);
  assert.equal(index.selectsItsNodeAlone(step('Viewer-window', ['Name'])), true);
});

test('candidates with positions, counted among many siblings, select exactly their node in the XPath engine', () => {
  const tree = tablesTree(30);
  const index = new LocatorIndex(tree);
  const xdm = new LocatorGenerator(tree).xdm;
  let positional = 0;
  for (const node of tree.nodes) {
    for (const candidate of locatorCandidates(index, node)) {
      if (!/\[\d+\]/.test(candidate.xpath)) continue;
      positional++;
      assert.deepEqual(
        selectNodes(xdm, candidate.xpath, 'fontoxpath').map((selected) => selected.key),
        [node.key],
        candidate.xpath,
      );
    }
  }
  assert.ok(positional > 50, `${positional} positional candidates`);
});
