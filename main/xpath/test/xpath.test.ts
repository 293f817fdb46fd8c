import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { InspectorError } from '../../../shared/model/errors.js';
import { toJsonValue } from '../../../shared/model/values.js';
import type { ProviderDescriptor, ProviderEvent, ProviderEventListener, ProviderNode } from '../../runtime/provider.js';
import { registerProviderFactory } from '../../runtime/registry.js';
import { Runtime } from '../../runtime/runtime.js';
import { XPathService, type EvaluationItem } from '../xpath-service.js';

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

function describe(items: EvaluationItem[]): string[] {
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
    assert.match(error.message, /line 1, column \d+/);
    return true;
  });
  await assert.rejects(xpath.evaluate('\n//Button[\n  xs:integer("x")]'), (error: unknown) => {
    assert.ok(error instanceof InspectorError);
    assert.equal(error.position?.line, 3);
    assert.equal(error.position?.column, 3);
    return true;
  });
  await assert.rejects(xpath.evaluate('foo:Bar'), /prefix foo could not be resolved/);
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
  const big = await Runtime.create({ providers: ['mock'], platform: 'mock', providerOptions: { mockFile: file } });
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

test('the worker indexes a tree it holds whole, and answers from the index until the tree changes', async () => {
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
    // A button added first: a new tree generation, walked, then indexed again.
    live.buttons.unshift('bx');
    live.emit({ kind: 'NodeAdded', runtimeId: 'live:bx', parentRuntimeId: 'live:pane' });
    const added = ids('bx', 'b0', 'b1', 'b2', 'b3');
    assert.deepEqual(await ask('//Button'), { answer: added, engine: 'fast', indexed: false });
    assert.deepEqual(await ask('//Button'), { answer: added, engine: 'fast', indexed: true });
    assert.deepEqual(await ask('(//Button)[1]'), { answer: ids('bx'), engine: 'fast', indexed: true });
    // Renamed: the old name finds nothing, the new one the button.
    live.names.set('b1', 'renamed');
    live.emit({ kind: 'NodeUpdated', runtimeId: 'live:b1' });
    assert.deepEqual(await ask("//Button[@Name='b1']"), { answer: [], engine: 'fast', indexed: false });
    assert.deepEqual(await ask("//Button[@Name='b1']"), { answer: [], engine: 'fast', indexed: true });
    assert.deepEqual(await ask("//Button[@Name='renamed']"), { answer: ids('b1'), engine: 'fast', indexed: true });
    // Removed.
    live.buttons = live.buttons.filter((key) => key !== 'b3');
    live.emit({ kind: 'NodeRemoved', runtimeId: 'live:b3', parentRuntimeId: 'live:pane' });
    assert.deepEqual(await ask('count(//Button)'), { answer: ['4'], engine: 'fast', indexed: false });
    assert.deepEqual(await ask("//Button[@Name='b3']"), { answer: [], engine: 'fast', indexed: true });
    assert.deepEqual(await ask('//Pane/Button[last()]'), { answer: ids('b2'), engine: 'fast', indexed: true });
  } finally {
    await service.close();
    await changing.shutdown();
  }
});
