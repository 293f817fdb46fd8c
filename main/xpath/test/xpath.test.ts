import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { InspectorError } from '../../../shared/model/errors.js';
import { seededRandom } from '../../../shared/random.js';
import { toJsonValue } from '../../../shared/model/values.js';
import type { ProviderDescriptor, ProviderEvent, ProviderEventListener, ProviderNode } from '../../core/provider.js';
import { registerProviderFactory } from '../../core/registry.js';
import { Runtime } from '../../runtime/runtime.js';
import type { RuntimeNode } from '../../runtime/node.js';
import { XPathService, type XPathItem } from '../xpath-service.js';

let runtime: Runtime;
let xpath: XPathService;

before(async () => {
  runtime = await Runtime.create({ providers: ['mock'], platform: 'mock' });
  xpath = new XPathService(runtime);
});
after(async () => {
  await xpath.close();
  await runtime.shutdown();
});

function describe(items: XPathItem[]): string[] {
  return items.map((item) =>
    item.type === 'node'
      ? item.node.runtimeId
      : item.type === 'attribute'
        ? `${item.owner.runtimeId}@${item.name}=${JSON.stringify(toJsonValue(item.value))}`
        : JSON.stringify(toJsonValue(item.value)),
  );
}

async function query(expression: string): Promise<string[]> {
  return describe((await xpath.evaluate(expression)).items);
}

test('a UI element is one node to a query, in both views', async () => {
  assert.equal((await query('//Button')).length, 6);
  assert.deepEqual(await query('count(//Button)'), ['6']);
  assert.deepEqual(await query('count(/Window)'), ['3']);
  assert.deepEqual(await query("app:Application[@Name='Login']//Button"), ['mock:button-login-ok']);
  assert.deepEqual(await query("app:Application[@Name='Studio']/Window/@Name"), [
    'mock:window-studio@Name="Studio - demo"',
    'mock:window-preferences@Name="Preferences"',
  ]);
});

test('namespaces: unprefixed names are control, item/app/native are prefixes, control attributes unnamespaced', async () => {
  assert.deepEqual(await query('count(//ListItem)'), ['0']);
  assert.deepEqual(await query('count(//item:ListItem)'), ['3']);
  assert.deepEqual(await query('count(//control:Button)'), ['6']);
  assert.deepEqual(await query("//Button[@control:Name='Save']"), ['mock:button-save']);
  assert.deepEqual(await query("//Button[@native:ScriptedFailure='focus']"), ['mock:button-flaky']);
  assert.deepEqual(await query("//*[@RuntimeId='mock:tree-project']/@Id"), ['mock:tree-project@Id="project-tree"']);
});

test('typed comparisons: booleans, numbers and derived aliases', async () => {
  assert.deepEqual(await query('//Button[@IsEnabled = false()]'), ['mock:button-save']);
  assert.deepEqual(await query('//Window[@Bounds.X < 0]'), ['mock:window-preferences']);
  assert.deepEqual(await query('//Window[@Bounds.Width >= 1280]/@Bounds.Width'), [
    'mock:window-studio@Bounds.Width=1280',
  ]);
  assert.deepEqual(await query('//CheckBox/@ActivationPoint'), [
    'mock:checkbox-autosave@ActivationPoint={"x":360,"y":130}',
  ]);
  assert.deepEqual(await query('sum(//Window/@Bounds.Height)'), ['1500']);
});

test('positional predicates, last(), unions and document order', async () => {
  assert.deepEqual(await query('(//Button)[1]'), ['mock:button-toolbar-ok']);
  assert.deepEqual(await query('(//Button)[last()]'), ['mock:button-login-ok']);
  assert.deepEqual(await query("//Window[@Name='Preferences']/Button[2]"), ['mock:button-preferences-cancel']);
  assert.deepEqual(await query('//Edit | //CheckBox'), [
    'mock:checkbox-autosave',
    'mock:edit-search',
    'mock:edit-user',
  ]);
  assert.deepEqual(await query("//item:TreeItem[@Name='main.ts']/ancestor::Tree/@Name"), [
    'mock:tree-project@Name="Project"',
  ]);
  assert.deepEqual(await query('//item:ListItem[@IsSelected=true()]/following-sibling::*'), ['mock:listitem-3']);
});

test('values come back typed', async () => {
  const items = (await xpath.evaluate("(count(//Button), 1.5, 'x', true())")).items;
  assert.deepEqual(
    items.map((item) => (item.type === 'value' ? item.value : undefined)),
    [
      { type: 'Integer', value: 6 },
      { type: 'Number', value: 1.5 },
      { type: 'String', value: 'x' },
      { type: 'Bool', value: true },
    ],
  );
});

test('the document node is the desktop', async () => {
  assert.deepEqual(await query('/'), ['platynui:Desktop']);
});

test('syntax and type errors carry their position', async () => {
  await assert.rejects(xpath.evaluate("//Button[@Name='OK'"), (error: unknown) => {
    assert.ok(error instanceof InspectorError);
    assert.equal(error.code, 'xpath-syntax');
    assert.equal(error.position?.line, 1);
    assert.equal(error.message, "The '[' at column 9 is never closed");
    return true;
  });
  await assert.rejects(xpath.evaluate('\n//Button[\n  xs:integer("x")]'), (error: unknown) => {
    assert.ok(error instanceof InspectorError);
    assert.equal(error.position?.line, 3);
    assert.equal(error.position?.column, 3);
    return true;
  });
  await assert.rejects(xpath.evaluate('foo:Bar'), /Unknown namespace prefix 'foo' at column 1/);
  await assert.rejects(xpath.evaluate('   '), /empty/);
});

test('secret values are not queryable', async () => {
  assert.deepEqual(await query('//PasswordText/@Text'), []);
  assert.deepEqual(await query('//PasswordText[@IsSecure=true()]/@Name'), ['mock:password@Name="Password"']);
});

/** A provider node for tests: the given fields over inert defaults. */
function testNode(fields: Partial<ProviderNode> & Pick<ProviderNode, 'runtimeId' | 'role' | 'name'>): ProviderNode {
  return {
    namespace: 'control',
    id: undefined,
    isSecure: false,
    children: () => Promise.resolve([]),
    attributes: () => Promise.resolve([]),
    supportedPatterns: () => Promise.resolve([]),
    performAction: () => Promise.resolve(),
    isValid: () => Promise.resolve(true),
    invalidate: () => undefined,
    ...fields,
  };
}

/**
 * Registers an opt-in provider whose tree is `roots`, for runtimes the tests create by its id; `listeners` receive
 * the events a test reports.
 */
function registerTestProvider(
  id: string,
  roots: () => readonly ProviderNode[],
  listeners?: Set<ProviderEventListener>,
): void {
  const descriptor: ProviderDescriptor = {
    id,
    displayName: id,
    technology: 'Test',
    kind: 'mock',
    eventCapabilities: 'Structure',
    optIn: true,
    defaultOn: [],
  };
  registerProviderFactory({
    descriptor,
    create: () =>
      Promise.resolve({
        descriptor,
        roots: () => Promise.resolve(roots()),
        subscribe: (listener: ProviderEventListener) => {
          listeners?.add(listener);
          return () => listeners?.delete(listener);
        },
        status: () => ({ state: 'ready' as const }),
        shutdown: () => Promise.resolve(),
      }),
  });
}

/** A provider whose children arrive slowly: a deep chain, so a full walk takes seconds. */
const slowCalls = { count: 0 };
function slowNode(depth: number): ProviderNode {
  return testNode({
    runtimeId: `slow:${depth}`,
    namespace: depth === 0 ? 'app' : 'control',
    role: depth === 0 ? 'Application' : 'Pane',
    name: `n${depth}`,
    children: () =>
      new Promise((resolve) => {
        slowCalls.count++;
        setTimeout(() => resolve(depth < 200 ? [slowNode(depth + 1)] : []), 20);
      }),
  });
}
registerTestProvider('slow-test', () => [slowNode(0)]);

test('a cancelled evaluation stops, and the service keeps working', async () => {
  const slow = await Runtime.create({ providers: ['slow-test'], platform: 'none' });
  const service = new XPathService(slow);
  try {
    await service.warmUp();
    const controller = new AbortController();
    const running = service.evaluate('count(//Pane)', { signal: controller.signal });
    setTimeout(() => controller.abort(), 150);
    await assert.rejects(running, (error: unknown) => error instanceof InspectorError && error.code === 'cancelled');
    const callsAtCancel = slowCalls.count;
    assert.ok(callsAtCancel < 150, `the walk stopped early (${callsAtCancel} of 201 fetches)`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(slowCalls.count <= callsAtCancel + 1, 'no more fetches after the cancellation');
    await assert.rejects(service.evaluate('count(//Pane)', { timeoutMs: 100 }), (error: unknown) => {
      return error instanceof InspectorError && error.code === 'timeout';
    });
    assert.deepEqual(describe((await service.evaluate('count(app:Application)')).items), ['1']);
  } finally {
    await service.close();
    await slow.shutdown();
  }
});

test('evaluation is lazy: (//Button)[1] materializes a small part of the tree', async () => {
  const windows = Array.from({ length: 20 }, (_, w) => {
    const buttons = Array.from(
      { length: 50 },
      (_, b) => `<Pane Name="p${w}-${b}"><Button Name="b${w}-${b}"/></Pane>`,
    ).join('');
    return `<Window Name="w${w}">${buttons}</Window>`;
  }).join('');
  const xml = `<snapshot xmlns="urn:platynui:control" xmlns:app="urn:platynui:app"><app:Application Name="Big">${windows}</app:Application></snapshot>`;
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'platynui-lazy-')), 'big.xml');
  writeFileSync(file, xml);
  const total = 1 + 20 * (1 + 50 * 2);
  const big = await Runtime.create({ providers: ['mock'], platform: 'mock', backendOptions: { mock: { file } } });
  const service = new XPathService(big);
  try {
    const first = await service.evaluate('(//Button)[1]');
    assert.deepEqual(
      first.items.map((item) => item.type === 'node' && item.node.name),
      ['b0-0'],
    );
    assert.ok(
      first.stats.nodesFetched < total / 10,
      `(//Button)[1] fetched ${first.stats.nodesFetched} of ${total} nodes`,
    );
    const all = await service.evaluate('count(//Button)');
    assert.deepEqual(all.items[0]?.type === 'value' && all.items[0].value, { type: 'Integer', value: 1000 });
    assert.ok(big.nodesFetched >= total, 'counting every button fetched the whole tree');
  } finally {
    await service.close();
    await big.shutdown();
  }
});

test('a predicate on one attribute reads only that attribute of each node', async () => {
  const reads: string[] = [];
  const attribute = (runtimeId: string, name: string, value: string) => ({
    namespace: 'control' as const,
    name,
    read: () => {
      reads.push(`${runtimeId}.${name}`);
      return Promise.resolve({ type: 'String' as const, value });
    },
  });
  const leaf = (index: number): ProviderNode =>
    testNode({
      runtimeId: `counted:${index}`,
      role: 'Button',
      name: `b${index}`,
      attributes: () =>
        Promise.resolve([
          attribute(`counted:${index}`, 'Kind', index === 3 ? 'special' : 'plain'),
          attribute(`counted:${index}`, 'Description', 'd'),
          attribute(`counted:${index}`, 'Help', 'h'),
        ]),
    });
  const window = testNode({
    runtimeId: 'counted:window',
    role: 'Window',
    name: 'w',
    children: () => Promise.resolve([0, 1, 2, 3, 4].map(leaf)),
  });
  registerTestProvider('counted-test', () => [window]);
  const counted = await Runtime.create({ providers: ['counted-test'], platform: 'none' });
  const service = new XPathService(counted);
  try {
    const fast = await service.evaluate("//Button[@Kind='special']");
    assert.deepEqual(describe(fast.items), ['counted:3']);
    assert.deepEqual(
      reads.sort(),
      [0, 1, 2, 3, 4].map((i) => `counted:${i}.Kind`),
    );
    reads.length = 0;
    const slow = await service.evaluate("//Button[matches(@Kind, '^spec')]/@Help");
    assert.equal(slow.stats.engine, 'fontoxpath');
    assert.deepEqual(describe(slow.items), ['counted:3@Help="h"']);
    assert.deepEqual(reads, ['counted:3.Help'], 'Kind was read before and is cached; Help only where selected');
  } finally {
    await service.close();
    await counted.shutdown();
  }
});

/** A tree that changes under the test: Window > Pane > Buttons, whose list and names the test edits. */
const live = {
  buttons: ['b0', 'b1', 'b2', 'b3'],
  names: new Map<string, string>(),
  nodes: new Map<string, ProviderNode>(),
  listeners: new Set<ProviderEventListener>(),
  emit(event: ProviderEvent): void {
    for (const listener of this.listeners) listener(event);
  },
};
function liveButton(key: string): ProviderNode {
  let node = live.nodes.get(key);
  if (!node) {
    node = testNode({ runtimeId: `live:${key}`, role: 'Button', name: '' });
    Object.defineProperty(node, 'name', { get: () => live.names.get(key) ?? key });
    live.nodes.set(key, node);
  }
  return node;
}
const livePane = testNode({
  runtimeId: 'live:pane',
  role: 'Pane',
  name: 'pane',
  children: () => Promise.resolve(live.buttons.map(liveButton)),
});
registerTestProvider(
  'live-test',
  () => [testNode({ runtimeId: 'live:w', role: 'Window', name: 'w', children: () => Promise.resolve([livePane]) })],
  live.listeners,
);

test('the worker indexes a tree it holds whole, and keeps answering from the index as the tree changes', async () => {
  const changing = await Runtime.create({ providers: ['live-test'], platform: 'none' });
  const service = new XPathService(changing);
  const ask = async (expression: string) => {
    const { items, stats } = await service.evaluate(expression);
    return { answer: describe(items), engine: stats.engine, indexed: stats.indexed };
  };
  const ids = (...keys: string[]) => keys.map((key) => `live:${key}`);
  try {
    // The first query of a tree brings it in whole; the worker then indexes it while idle.
    assert.deepEqual(await ask("//Button[@Name='b2']"), { answer: ids('b2'), engine: 'fast', indexed: false });
    assert.deepEqual(await ask("//Button[@Name='b2']"), { answer: ids('b2'), engine: 'fast', indexed: true });
    assert.deepEqual(await ask('//Button'), { answer: ids('b0', 'b1', 'b2', 'b3'), engine: 'fast', indexed: true });
    // A button added first: the worker fetches the pane's list again and indexes its mirror again before the query.
    live.buttons.unshift('bx');
    live.emit({ kind: 'NodeAdded', runtimeId: 'live:bx', parentRuntimeId: 'live:pane' });
    const added = ids('bx', 'b0', 'b1', 'b2', 'b3');
    assert.deepEqual(await ask('//Button'), { answer: added, engine: 'fast', indexed: true });
    assert.deepEqual(await ask('//Button'), { answer: added, engine: 'fast', indexed: true });
    assert.deepEqual(await ask('(//Button)[1]'), { answer: ids('bx'), engine: 'fast', indexed: true });
    // Renamed: the old name finds nothing, the new one the button (the index is kept).
    live.names.set('b1', 'renamed');
    live.emit({ kind: 'NodeUpdated', runtimeId: 'live:b1' });
    assert.deepEqual(await ask("//Button[@Name='b1']"), { answer: [], engine: 'fast', indexed: true });
    assert.deepEqual(await ask("//Button[@Name='b1']"), { answer: [], engine: 'fast', indexed: true });
    assert.deepEqual(await ask("//Button[@Name='renamed']"), { answer: ids('b1'), engine: 'fast', indexed: true });
    // Removed.
    live.buttons = live.buttons.filter((key) => key !== 'b3');
    live.emit({ kind: 'NodeRemoved', runtimeId: 'live:b3', parentRuntimeId: 'live:pane' });
    assert.deepEqual(await ask('count(//Button)'), { answer: ['4'], engine: 'fast', indexed: true });
    assert.deepEqual(await ask("//Button[@Name='b3']"), { answer: [], engine: 'fast', indexed: true });
    assert.deepEqual(await ask('//Pane/Button[last()]'), { answer: ids('b2'), engine: 'fast', indexed: true });
    // A list that changed without an event is seen once a front end refreshes the node (RuntimeNode.invalidate).
    live.buttons.push('by');
    assert.deepEqual(await ask('//Pane/Button[last()]'), { answer: ids('b2'), engine: 'fast', indexed: true });
    changing.node('live:pane')!.invalidate();
    assert.deepEqual(await ask('//Pane/Button[last()]'), { answer: ids('by'), engine: 'fast', indexed: true });
    live.buttons.pop();
  } finally {
    await service.close();
    await changing.shutdown();
  }
});

/**
 * A tree the tests edit at random places: Window > Panes and Buttons; each edit is reported to the runtime as a
 * provider does (NodeAdded and NodeRemoved with the parent, NodeUpdated for a rename).
 */
interface EditedNode {
  role: 'Window' | 'Pane' | 'Button';
  name: string;
  children: string[];
  parent: string | undefined;
}
class EditedTree {
  readonly nodes = new Map<string, EditedNode>();
  readonly listeners = new Set<ProviderEventListener>();
  private readonly providerNodes = new Map<string, ProviderNode>();
  private next = 0;

  constructor(readonly prefix: string) {
    this.nodes.set('w', { role: 'Window', name: 'w', children: [], parent: undefined });
  }

  /** Adds a node (with children for a pane) under `parent` at `at`; returns its key. No event. */
  add(parent: string, at: number, role: 'Pane' | 'Button', name: string, buttons = 0): string {
    const key = `n${this.next++}`;
    this.nodes.set(key, { role, name, children: [], parent });
    this.nodes.get(parent)!.children.splice(at, 0, key);
    for (let i = 0; i < buttons; i++) this.add(key, i, 'Button', `${name}-${i}`);
    return key;
  }

  remove(key: string): void {
    const node = this.nodes.get(key)!;
    const siblings = this.nodes.get(node.parent!)!.children;
    siblings.splice(siblings.indexOf(key), 1);
    const below = [key];
    for (let next = below.pop(); next; next = below.pop()) {
      below.push(...this.nodes.get(next)!.children);
      this.nodes.delete(next);
    }
  }

  emit(event: ProviderEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  id(key: string): string {
    return `${this.prefix}:${key}`;
  }

  provider(key: string): ProviderNode {
    let node = this.providerNodes.get(key);
    if (!node) {
      const role = this.nodes.get(key)!.role;
      let name = this.nodes.get(key)!.name;
      node = testNode({
        runtimeId: this.id(key),
        role,
        name,
        children: () => Promise.resolve((this.nodes.get(key)?.children ?? []).map((child) => this.provider(child))),
      });
      Object.defineProperty(node, 'name', { get: () => (name = this.nodes.get(key)?.name ?? name) });
      this.providerNodes.set(key, node);
    }
    return node;
  }

  /** The runtime ids of the nodes below the window (and the window), in document order, for `keep`. */
  preorder(keep: (node: EditedNode) => boolean): string[] {
    const out: string[] = [];
    const visit = (key: string) => {
      if (keep(this.nodes.get(key)!)) out.push(this.id(key));
      for (const child of this.nodes.get(key)!.children) visit(child);
    };
    visit('w');
    return out;
  }
}

const randomTree = new EditedTree('rand');
registerTestProvider('edited-random-test', () => [randomTree.provider('w')], randomTree.listeners);

test('the mirror follows random adds, removes and renames: the same answers as a mirror built anew, indexed', async () => {
  const random = seededRandom(8);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const names = ['a', 'b', 'c', 'd'];
  for (let i = 0; i < 6; i++) randomTree.add('w', i, 'Pane', pick(names), 1 + Math.floor(random() * 4));
  const edited = await Runtime.create({ providers: ['edited-random-test'], platform: 'none' });
  const following = new XPathService(edited);
  const reference = new XPathService(edited);
  const queries = [
    '//Button',
    "//Button[@Name='a']",
    "//Pane[@Name='b']",
    '//Pane/Button[2]',
    "//Pane[@Name='c']//Button[last()]",
    'count(//*)',
    "//Button[@Name='a-1']/..",
    "//*[@Name='d']/following-sibling::*[1]",
  ];
  try {
    await following.evaluate('//*');
    let indexedRuns = 0;
    let edits = 0;
    for (let round = 0; round < 60; round++) {
      for (let e = Math.floor(random() * 3); e >= 0; e--) {
        const keys = [...randomTree.nodes.keys()];
        const kind = random();
        edits++;
        if (kind < 0.35 || keys.length < 4) {
          const containers = keys.filter((key) => randomTree.nodes.get(key)!.role !== 'Button');
          const parent = pick(containers);
          const at = Math.floor(random() * (randomTree.nodes.get(parent)!.children.length + 1));
          const pane = random() < 0.5;
          const key = randomTree.add(
            parent,
            at,
            pane ? 'Pane' : 'Button',
            pick(names),
            pane ? Math.floor(random() * 3) : 0,
          );
          randomTree.emit({ kind: 'NodeAdded', runtimeId: randomTree.id(key), parentRuntimeId: randomTree.id(parent) });
        } else if (kind < 0.6) {
          const key = pick(keys.filter((k) => k !== 'w'));
          const parent = randomTree.nodes.get(key)!.parent!;
          randomTree.remove(key);
          randomTree.emit({
            kind: 'NodeRemoved',
            runtimeId: randomTree.id(key),
            parentRuntimeId: randomTree.id(parent),
          });
        } else {
          const key = pick(keys);
          const node = randomTree.nodes.get(key)!;
          node.name = node.role === 'Button' && random() < 0.5 ? `${pick(names)}-1` : pick(names);
          randomTree.emit({ kind: 'NodeUpdated', runtimeId: randomTree.id(key) });
        }
      }
      for (const expression of queries) {
        const got = await following.evaluate(expression);
        reference.rebuildMirror();
        const fresh = await reference.evaluate(expression);
        assert.deepEqual(describe(got.items), describe(fresh.items), `round ${round}: ${expression}`);
        if (got.stats.indexed) indexedRuns++;
      }
      // Against the edited tree itself: every element, in document order.
      const all = await following.evaluate('//*');
      assert.deepEqual(
        describe(all.items),
        randomTree.preorder(() => true),
        `round ${round}: //*`,
      );
      const buttons = await following.evaluate('//Button');
      assert.deepEqual(
        describe(buttons.items),
        randomTree.preorder((node) => node.role === 'Button'),
      );
      assert.ok(buttons.stats.indexed, `round ${round}: //Button from the index after the edits`);
    }
    assert.ok(edits >= 100, `${edits} edits`);
    assert.ok(indexedRuns > 0);
  } finally {
    await following.close();
    await reference.close();
    await edited.shutdown();
  }
});

const heldTree = new EditedTree('held');
registerTestProvider('edited-held-test', () => [heldTree.provider('w')], heldTree.listeners);

test('a first query that stays on the top level sends the worker the top level alone, however much is held', async () => {
  for (let p = 0; p < 10; p++) heldTree.add('w', p, 'Pane', `p${p}`, 20);
  const runtime = await Runtime.create({ providers: ['edited-held-test'], platform: 'none' });
  const service = new XPathService(runtime);
  try {
    // The runtime holds the whole tree before the worker sees any of it (a check's bulk load does this).
    const load = async (node: RuntimeNode): Promise<void> => {
      for (const child of await node.children()) await load(child);
    };
    await load(runtime.desktop);
    const top = await service.evaluate("count(/Window[@Name='w'])");
    assert.deepEqual(describe(top.items), ['1']);
    assert.ok(top.stats.bridgeNodes <= 2, `${top.stats.bridgeNodes} records for the top level`);
    const deep = await service.evaluate('count(//Button)');
    assert.deepEqual(describe(deep.items), ['200']);
    assert.ok(deep.stats.bridgeNodes >= 210, `the rest came when asked for (${deep.stats.bridgeNodes} records)`);
  } finally {
    await service.close();
    await runtime.shutdown();
  }
});

const bigTree = new EditedTree('big');
registerTestProvider('edited-big-test', () => [bigTree.provider('w')], bigTree.listeners);

test('after a change in one small subtree the next query fetches only that list and the new nodes, and is indexed', async () => {
  const panes: string[] = [];
  for (let p = 0; p < 20; p++) panes.push(bigTree.add('w', p, 'Pane', `p${p}`, 50));
  const total = bigTree.nodes.size;
  const edited = await Runtime.create({ providers: ['edited-big-test'], platform: 'none' });
  const service = new XPathService(edited);
  const ask = async (expression: string) => {
    const fetchedBefore = edited.nodesFetched;
    const { items, stats } = await service.evaluate(expression);
    return {
      answer: describe(items),
      indexed: stats.indexed,
      bridgeNodes: stats.bridgeNodes,
      fetched: edited.nodesFetched - fetchedBefore,
    };
  };
  try {
    const first = await ask('count(//Button)');
    assert.deepEqual(first.answer, ['1000']);
    assert.ok(first.bridgeNodes >= total, `the first query brought the whole tree (${first.bridgeNodes} records)`);
    assert.deepEqual(await ask('count(//Button)'), { answer: ['1000'], indexed: true, bridgeNodes: 0, fetched: 0 });

    // A pane with three buttons added in pane 7: pane 7's list again (50 known buttons without their subtrees),
    // the new pane and its buttons; nothing else crosses the bridge or is fetched from the provider.
    const added = bigTree.add(panes[7]!, 10, 'Pane', 'new', 3);
    bigTree.emit({ kind: 'NodeAdded', runtimeId: bigTree.id(added), parentRuntimeId: bigTree.id(panes[7]!) });
    const newButton = bigTree.nodes.get(added)!.children[2]!;
    assert.deepEqual(await ask("//Button[@Name='new-2']"), {
      answer: [bigTree.id(newButton)],
      indexed: true,
      bridgeNodes: 51 + 3,
      fetched: 4,
    });
    assert.deepEqual(
      (await ask('//Button')).answer,
      bigTree.preorder((node) => node.role === 'Button'),
    );

    // A rename: no list fetched again, the index kept; a name asked before the rename finds nothing after it.
    const renamed = bigTree.nodes.get(panes[3]!)!.children[5]!;
    assert.deepEqual((await ask("//Button[@Name='p3-5']")).answer, [bigTree.id(renamed)]);
    bigTree.nodes.get(renamed)!.name = 'renamed';
    bigTree.emit({ kind: 'NodeUpdated', runtimeId: bigTree.id(renamed) });
    assert.deepEqual(await ask("//Button[@Name='renamed']"), {
      answer: [bigTree.id(renamed)],
      indexed: true,
      bridgeNodes: 0,
      fetched: 0,
    });
    assert.deepEqual((await ask("//Button[@Name='p3-5']")).answer, []);

    // A removal: the parent's list again, the removed pane's buttons gone from every answer.
    bigTree.remove(panes[12]!);
    bigTree.emit({ kind: 'NodeRemoved', runtimeId: bigTree.id(panes[12]!), parentRuntimeId: bigTree.id('w') });
    assert.deepEqual(await ask('count(//Button)'), { answer: ['953'], indexed: true, bridgeNodes: 19, fetched: 0 });
    assert.deepEqual((await ask("//Pane[@Name='p12']//Button")).answer, []);

    // Without the runtime's details (the behaviour before): the whole tree again.
    service.rebuildMirror();
    bigTree.nodes.get(renamed)!.name = 'again';
    bigTree.emit({ kind: 'NodeUpdated', runtimeId: bigTree.id(renamed) });
    const rebuilt = await ask("//Button[@Name='again']");
    assert.deepEqual(rebuilt.answer, [bigTree.id(renamed)]);
    assert.equal(rebuilt.indexed, false);
    assert.ok(rebuilt.bridgeNodes >= total - 51, `${rebuilt.bridgeNodes} records`);
  } finally {
    await service.close();
    await edited.shutdown();
  }
});
