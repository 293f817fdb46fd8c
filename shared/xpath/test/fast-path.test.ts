import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileFastPath, FastPathFallback, type FastItem } from '../fast/index.js';
import { CancelledError, MemoryTree, type MemNode } from '../memory-tree.js';
import { PlainFacade } from '../plain-facade.js';
import { treeFromSpec } from './generate.js';

const C = 'urn:platynui:control';

/**
 * Window "w" > Pane "p1" > [Button "b1" (Id x), Text "t1", Button "b2"], Pane "p2" > [Button "b3", Pane "p3" >
 * [Button "b4"]], item:ListItem "i1" (native:Role cell, Bounds.X 1.0, Enabled true)
 */
function sample(): MemoryTree {
  return treeFromSpec([
    {
      role: 'Window',
      attrs: { Name: 'w' },
      kids: [
        {
          role: 'Pane',
          attrs: { Name: 'p1' },
          kids: [
            { role: 'Button', attrs: { Name: 'b1', Id: 'x' } },
            { role: 'Text', attrs: { Name: 't1' } },
            { role: 'Button', attrs: { Name: 'b2' } },
          ],
        },
        {
          role: 'Pane',
          attrs: { Name: 'p2' },
          kids: [
            { role: 'Button', attrs: { Name: 'b3' } },
            { role: 'Pane', attrs: { Name: 'p3' }, kids: [{ role: 'Button', attrs: { Name: 'b4' } }] },
          ],
        },
        {
          role: 'item:ListItem',
          attrs: { Name: 'i1', 'native:Role': 'cell', 'Bounds.X': '1.0', Enabled: 'true' },
        },
      ],
    },
  ]);
}

function label(tree: MemoryTree, i: FastItem<MemNode>): string {
  if (i.type === 'value') return `=${String(i.value)}`;
  if (i.type === 'attribute') return `${name(i.owner)}@${i.localName}=${i.value}`;
  return tree.isDocument(i.node) ? '/' : name(i.node);
}
function name(n: MemNode): string {
  return n.attrs.find((a) => a.localName === 'Name' && a.namespaceUri === null)?.value ?? n.localName;
}
function find(tree: MemoryTree, nodeName: string): MemNode {
  const walk = (n: MemNode): MemNode | undefined => {
    if (!n.document && name(n) === nodeName) return n;
    for (const c of n.children) {
      const f = c.parent === n ? walk(c) : undefined;
      if (f) return f;
    }
    return undefined;
  };
  const f = walk(tree.root);
  assert.ok(f, nodeName);
  return f;
}

function run(tree: MemoryTree, xpath: string, context: MemNode = tree.root): string[] {
  const q = compileFastPath(xpath);
  assert.ok(q, `not compiled: ${xpath}`);
  const fast = [...q.evaluate(tree, context)].map((i) => label(tree, i));
  // Every expectation here is also fontoxpath's answer.
  const ref = new PlainFacade(tree).evaluate(xpath, context).map((i) => label(tree, i));
  assert.deepEqual(fast, ref, `fontoxpath differs on ${xpath}`);
  return fast;
}

test('expressions outside the subset are not compiled (fontoxpath handles them)', () => {
  for (const x of [
    '//Button[position() = 1]',
    '//Button[',
    '1 + 2',
    '//x:Button',
    'string(//Button)',
    '(: comment :) //Button',
    "'a' = 1",
    'true() = 1',
    "//Button | 'x'",
    '//Button/@Name | //Button',
    '//Button[. = "x"]',
    'count(//Button)[1]',
    '//Button[last() - 1]',
    '$x',
    '//following::Button',
    '//Button/text()',
    '//Button[contains(@Name, 1)]',
    '()',
    '',
  ]) {
    assert.equal(compileFastPath(x), undefined, x);
  }
  assert.ok(compileFastPath('//Button'));
  assert.equal(compileFastPath('count(//Button)')!.resultKind, 'value');
  assert.equal(compileFastPath('//Button/@Name')!.resultKind, 'nodes');
});

test('axes', () => {
  const t = sample();
  const b3 = find(t, 'b3');
  const b4 = find(t, 'b4');
  assert.deepEqual(run(t, '/Window/Pane'), ['p1', 'p2']);
  assert.deepEqual(run(t, '//Button'), ['b1', 'b2', 'b3', 'b4']);
  assert.deepEqual(run(t, '/descendant::Pane'), ['p1', 'p2', 'p3']);
  assert.deepEqual(run(t, 'descendant-or-self::Pane', find(t, 'p2')), ['p2', 'p3']);
  assert.deepEqual(run(t, 'self::Button', b3), ['b3']);
  assert.deepEqual(run(t, 'self::Pane', b3), []);
  assert.deepEqual(run(t, '..', b3), ['p2']);
  assert.deepEqual(run(t, 'parent::Window', b3), []);
  assert.deepEqual(run(t, 'ancestor::*', b4), ['w', 'p2', 'p3']);
  assert.deepEqual(run(t, 'ancestor::node()', b4), ['/', 'w', 'p2', 'p3']);
  assert.deepEqual(run(t, 'ancestor-or-self::Pane', find(t, 'p3')), ['p2', 'p3']);
  assert.deepEqual(run(t, 'following-sibling::*', find(t, 'b1')), ['t1', 'b2']);
  assert.deepEqual(run(t, 'preceding-sibling::*', find(t, 'b2')), ['b1', 't1']);
  assert.deepEqual(run(t, '//item:*'), ['i1']);
  assert.deepEqual(run(t, '//*:ListItem | //control:Text'), ['t1', 'i1']);
  assert.deepEqual(run(t, '//@native:*'), ['i1@Role=cell']);
  assert.deepEqual(run(t, '/'), ['/']);
  assert.deepEqual(run(t, '//Pane[@Name="p3"]/.'), ['p3']);
  // `@control:Name` is `@Name` (the XPath pipeline rewrites it the same way for fontoxpath).
  const q = compileFastPath("//*[@control:Name = 'b2']/@control:*")!;
  assert.deepEqual(
    [...q.evaluate(t, t.root)].map((i) => label(t, i)),
    ['b2@Name=b2'],
  );
});

test('predicates: existence, comparisons, functions, boolean operators', () => {
  const t = sample();
  assert.deepEqual(run(t, '//*[@Id]'), ['b1']);
  assert.deepEqual(run(t, "//Button[@Name='b2']"), ['b2']);
  // != is existential and an absent attribute compares false for both = and !=.
  assert.deepEqual(run(t, "//Button[@Id != 'y']"), ['b1']);
  assert.deepEqual(run(t, "//Button[not(@Id = 'x')]"), ['b2', 'b3', 'b4']);
  // Untyped attribute values compare as numbers against numbers, as booleans against booleans.
  assert.deepEqual(run(t, '//*[@Bounds.X = 1]'), ['i1']);
  assert.deepEqual(run(t, "//*[@Bounds.X = '1']"), []);
  assert.deepEqual(run(t, '//*[@Enabled = true()]'), ['i1']);
  assert.deepEqual(run(t, "//*[contains(@Name, '3') or starts-with(@Name, 't')]"), ['t1', 'b3', 'p3']);
  assert.deepEqual(run(t, '//Pane[Button and not(Pane)]'), ['p1', 'p3']);
  assert.deepEqual(run(t, "//Pane[Button/@Name = 'b4' or Text]"), ['p1', 'p3']);
  assert.deepEqual(run(t, '//Pane[count(Button) = 2]'), ['p1']);
  assert.deepEqual(run(t, '//Pane[count(*) = 1]'), ['p3']);
  // A value that does not cast raises in XPath: the fast path hands over to fontoxpath.
  const q = compileFastPath('//*[@Name = 5]')!;
  assert.equal(q.mayFallBack, true);
  assert.throws(() => [...q.evaluate(t, t.root)], FastPathFallback);
  assert.equal(compileFastPath("//*[@Name = '5' or contains(@Id, 'x')]")!.mayFallBack, false);
  assert.equal(compileFastPath('//*[contains(*/@Id, "x")]')!.mayFallBack, true);
});

test('positions: per parent, whole sequence, last(), reverse axes', () => {
  const t = sample();
  assert.deepEqual(run(t, '//Button[1]'), ['b1', 'b3', 'b4']);
  assert.deepEqual(run(t, '(//Button)[1]'), ['b1']);
  assert.deepEqual(run(t, '(//Button)[last()]'), ['b4']);
  assert.deepEqual(run(t, '//Button[last()]'), ['b2', 'b3', 'b4']);
  assert.deepEqual(run(t, '//Pane/*[2]'), ['t1', 'p3']);
  assert.deepEqual(run(t, '//Pane[2]/Button'), ['b3']);
  assert.deepEqual(run(t, '//Button[@Name != "b1"][1]'), ['b2', 'b3', 'b4']);
  assert.deepEqual(run(t, '(//Button)[5]'), []);
  assert.deepEqual(run(t, '(//Button)[1.5]'), []);
  assert.deepEqual(run(t, 'ancestor::*[1]', find(t, 'b4')), ['p3']);
  assert.deepEqual(run(t, '(ancestor::*)[1]', find(t, 'b4')), ['w']);
  assert.deepEqual(run(t, 'preceding-sibling::*[1]', find(t, 'b2')), ['t1']);
  assert.deepEqual(run(t, 'ancestor::*[last()]', find(t, 'b4')), ['w']);
  // A numeric predicate is a position: p3 is the first Pane of p2 and has one Button.
  assert.deepEqual(run(t, '//Pane[count(Button)]'), ['p3']);
  assert.deepEqual(run(t, '(//Pane)[2]/Button/@Name'), ['b3@Name=b3']);
});

test('unions are in document order without duplicates; attributes and values', () => {
  const t = sample();
  assert.deepEqual(run(t, '//Pane[@Name="p3"] | //Button | //Pane[1]'), ['p1', 'b1', 'b2', 'b3', 'p3', 'b4']);
  assert.deepEqual(run(t, '//Text | //Text'), ['t1']);
  assert.deepEqual(run(t, '//Button[@Id]/@* | //Button[2]/@Name'), ['b1@Id=x', 'b1@Name=b1', 'b2@Name=b2']);
  assert.deepEqual(run(t, '//Button/@Name'), ['b1@Name=b1', 'b2@Name=b2', 'b3@Name=b3', 'b4@Name=b4']);
  assert.deepEqual(run(t, 'count(//Button | //Pane)'), ['=7']);
  assert.deepEqual(run(t, "//Button/@Name = 'b4'"), ['=true']);
  assert.deepEqual(run(t, "starts-with('abc', 'ab')"), ['=true']);
  const q = compileFastPath('//@Name')!;
  const first = [...q.evaluate(t, t.root)][0]!;
  assert.deepEqual(first, {
    type: 'attribute',
    owner: find(t, 'w'),
    namespaceUri: null,
    localName: 'Name',
    value: 'w',
  });
  assert.deepEqual([...compileFastPath('count(//*)')!.evaluate(t, t.root)], [{ type: 'value', value: 10 }]);
});

test('applications: alias edges are followed from the application only, each element is one node', () => {
  // Two applications, windows not grouped by application: beyond what a DOM facade lets fontoxpath express,
  // so the expectations are the contract of shared/xpath/tree.ts, written out.
  const t = treeFromSpec([
    { role: 'app:Application', attrs: { Name: 'A' }, aliases: [3, 5] },
    { role: 'app:Application', attrs: { Name: 'B' }, aliases: [4] },
    { role: 'app:Application', attrs: { Name: 'C' } },
    { role: 'Window', attrs: { Name: 'wa1' }, kids: [{ role: 'Button', attrs: { Name: 'OK' } }] },
    { role: 'Window', attrs: { Name: 'wb' }, kids: [{ role: 'Button', attrs: { Name: 'OK' } }] },
    {
      role: 'Window',
      attrs: { Name: 'wa2' },
      kids: [{ role: 'Pane', kids: [{ role: 'Button', attrs: { Name: 'x' } }] }],
    },
  ]);
  const names = (x: string, ctx?: MemNode) => {
    const q = compileFastPath(x)!;
    return [...q.evaluate(t, ctx ?? t.root)].map((i) => label(t, i));
  };
  assert.deepEqual(names('/Window'), ['wa1', 'wb', 'wa2']);
  assert.deepEqual(names('//Window'), ['wa1', 'wb', 'wa2']);
  assert.deepEqual(names('count(//Button)'), ['=3']);
  assert.deepEqual(names('/descendant::*'), ['A', 'B', 'C', 'wa1', 'OK', 'wb', 'OK', 'wa2', 'Pane', 'x']);
  assert.deepEqual(names("app:Application[@Name='A']/Window"), ['wa1', 'wa2']);
  assert.deepEqual(names("app:Application[@Name='A']//Button"), ['OK', 'x']);
  assert.deepEqual(names("app:Application[@Name='B']//Window"), ['wb']);
  assert.deepEqual(names("app:Application[@Name='A']/Window[last()]"), ['wa2']);
  assert.deepEqual(names('//app:Application[Window]'), ['A', 'B']);
  assert.deepEqual(names('//app:Application/Window | //Window'), ['wa1', 'wb', 'wa2']);
  assert.deepEqual(names('count(//app:Application//Button)'), ['=3']);
  // Up and sideways the real parent counts: a window's parent is the document.
  assert.deepEqual(names("//Button[@Name='x']/ancestor::node()"), ['/', 'wa2', 'Pane']);
  assert.deepEqual(names("//Window[@Name='wb']/preceding-sibling::*"), ['A', 'B', 'C', 'wa1']);
  assert.deepEqual(names('(//Window)[1]/following-sibling::*'), ['wb', 'wa2']);
});

test('applications only at the top: `//app:Application` lists the document alone, with the same answers', () => {
  const t = treeFromSpec([
    { role: 'app:Application', attrs: { Name: 'A' }, aliases: [2] },
    { role: 'app:Application', attrs: { Name: 'B' }, aliases: [3] },
    {
      role: 'Window',
      attrs: { Name: 'wa' },
      kids: [{ role: 'Pane', kids: [{ role: 'Button', attrs: { Name: 'OK' } }] }],
    },
    { role: 'Window', attrs: { Name: 'wb' }, kids: [{ role: 'Button', attrs: { Name: 'Go' } }] },
  ]);
  const run = (x: string, atTop: boolean) => {
    t.applicationsOnlyAtTop = atTop;
    t.childLists = 0;
    const answer = [...compileFastPath(x)!.evaluate(t, t.root)].map((i) => label(t, i));
    return { answer, lists: t.childLists };
  };
  const queries = [
    "//app:Application[@Name='B']",
    "//app:Application[@Name='B']//Button",
    '//app:Application',
    'count(//app:Application)',
    "//app:Application[@Name='A']/Window/Pane",
    "//app:Application[@Name='C']//Button",
  ];
  for (const x of queries) assert.deepEqual(run(x, true).answer, run(x, false).answer, x);
  assert.deepEqual(run("//app:Application[@Name='B']//Button", true).answer, ['Go']);
  // Only the document's children are listed to find the application; without the flag the whole tree is walked.
  assert.equal(run("//app:Application[@Name='B']", true).lists, 1);
  assert.ok(run("//app:Application[@Name='B']", false).lists > 3);
  // Below the application, only its own windows are walked (not the other application's).
  assert.equal(run("//app:Application[@Name='B']//Button", true).lists, 4);
});

function wideTree(): MemoryTree {
  const t = new MemoryTree();
  const w = t.add(t.root, C, 'Window', { Name: 'w' });
  for (let i = 0; i < 100; i++) {
    const p = t.add(w, C, 'Pane', { Name: `p${i}` });
    for (let j = 0; j < 10; j++) t.add(p, C, 'Button', { Name: `b${i}.${j}` });
  }
  return t;
}

test('laziness: first-match queries stop at the first match; limit stops the walk', () => {
  const t = wideTree();
  for (const [x, expected] of [
    ['(//Button)[1]', 'b0.0'],
    ['(//Pane/Button)[1]', 'b0.0'],
    ["(//Button[@Name='b1.2'])[1]", 'b1.2'],
    ['(/Window/Pane[2]/Button)[1]', 'b1.0'],
  ] as const) {
    t.resetCounters();
    const out = [...compileFastPath(x)!.evaluate(t, t.root)];
    assert.deepEqual(
      out.map((i) => label(t, i)),
      [expected],
    );
    assert.ok(t.childLists < 30, `${x} listed children of ${t.childLists} nodes`);
  }
  t.resetCounters();
  const full = [...compileFastPath('//Button')!.evaluate(t, t.root)];
  assert.equal(full.length, 1000);
  assert.ok(t.childLists > 1000);
  t.resetCounters();
  const some = [...compileFastPath('//Button')!.evaluate(t, t.root, { limit: 3 })];
  assert.deepEqual(
    some.map((i) => label(t, i)),
    ['b0.0', 'b0.1', 'b0.2'],
  );
  assert.ok(t.childLists < 10, `limit 3 listed ${t.childLists}`);
  // Nothing happens before the iterable is consumed.
  t.resetCounters();
  const it = compileFastPath('//Button')!.evaluate(t, t.root);
  assert.equal(t.accesses + t.checks, 0);
  it[Symbol.iterator]().next();
  assert.ok(t.checks > 0);
});

test('cancellation: checkCancelled is called at every step and its error passes through', () => {
  const t = wideTree();
  t.resetCounters();
  assert.equal([...compileFastPath('count(//Button)')!.evaluate(t, t.root)].length, 1);
  const stepsForAll = t.checks;
  assert.ok(stepsForAll >= 1100, `only ${stepsForAll} checks for 1101 nodes`);
  for (const x of ['//Button', "//Pane[Button/@Name='b99.9']", 'count(//Button | //Pane)', '//Button/..']) {
    t.resetCounters();
    t.cancelAfter = 50;
    let seen = 0;
    assert.throws(() => {
      for (const _ of compileFastPath(x)!.evaluate(t, t.root)) seen++;
    }, CancelledError);
    assert.ok(seen < 50, `${x}: ${seen} items before cancellation`);
    assert.equal(t.checks, 50);
  }
  t.cancelAfter = Infinity;
});

test('the index by name: lookups instead of walks, in document order, lazy and cancellable', () => {
  const t = wideTree();
  t.index = true;
  const labels = (x: string, options?: { limit?: number }) =>
    [...compileFastPath(x)!.evaluate(t, t.root, options)].map((i) => label(t, i));
  t.resetCounters();
  const all = labels('//Button');
  assert.equal(all.length, 1000);
  assert.deepEqual(all.slice(0, 3), ['b0.0', 'b0.1', 'b0.2']);
  assert.equal(all[999], 'b99.9');
  assert.equal(t.childLists, 0, 'no walk');
  assert.deepEqual([t.indexBuilds, t.indexLookups], [1, 1]);
  // By element and Name: the group is scanned once for a name, as far as it is read.
  assert.deepEqual(labels("(//Button[@Name='b0.3'])[1]"), ['b0.3']);
  assert.equal(t.nameReads, 4, 'the first match stops the scan');
  assert.deepEqual(labels("//Button[@Name='b42.7']"), ['b42.7']);
  assert.equal(t.nameReads, 4 + 1000, 'a scan of the whole group for another name');
  t.resetCounters();
  assert.deepEqual(labels("//Button['b42.7' = @Name]"), ['b42.7']);
  assert.equal(t.nameReads, 0, 'remembered');
  assert.deepEqual(labels("//Pane[@Name='p7']/Button[3]"), ['b7.2']);
  assert.deepEqual(labels("//Button[@Name='b7.2'][@Name!='x']/.."), ['p7']);
  assert.deepEqual(labels("//Button[@Name='nope']"), []);
  assert.deepEqual(labels('/descendant::Button[12] | /descendant-or-self::Pane[last()]'), ['b1.1', 'p99']);
  assert.deepEqual(labels('count(//Pane)'), ['=100']);
  assert.ok(t.childLists < 10, `no walk: only Button[3] and document order listed children (${t.childLists})`);
  assert.deepEqual(labels('//Button', { limit: 2 }), ['b0.0', 'b0.1']);
  // Cancellation is checked at every element of a list.
  t.resetCounters();
  t.cancelAfter = 50;
  let seen = 0;
  assert.throws(() => {
    for (const _ of compileFastPath('//Button')!.evaluate(t, t.root)) seen++;
  }, CancelledError);
  assert.ok(seen < 50, `${seen} items before cancellation`);
  assert.equal(t.checks, 50);
  t.cancelAfter = Infinity;
  // A change drops the index; the next query builds it again and sees the change.
  const p0 = find(t, 'p0');
  t.add(p0, C, 'Button', { Name: 'new' }, 0);
  t.setAttribute(find(t, 'b42.7'), 'Name', 'renamed');
  t.remove(find(t, 'p99'));
  assert.deepEqual(labels('(//Button)[1]'), ['new']);
  assert.deepEqual(labels("//Button[@Name='b42.7']"), []);
  assert.deepEqual(labels("//Button[@Name='renamed']"), ['renamed']);
  assert.deepEqual(labels('count(//Button)'), ['=991']);
  assert.equal(t.indexBuilds, 2);
});
