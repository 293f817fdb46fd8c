// The provider against a fake AT-SPI application (fake-app.ts) on a private bus: deferred developer ids (a complete
// cache carries none; they are read in one bulk call when first asked, and are right in attributes, XPath and the
// runtime's views), cycle detection on the lazy walk, and absurd child counts. Needs dbus-daemon (part of the desktop
// packages).
import '../../../backends/linux.js';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AttributeNames as A } from '../../../../shared/model/attributes.js';
import { prefetchApplications } from '../../../runtime/application-prefetch.js';
import { Runtime } from '../../../runtime/runtime.js';
import { XPathService } from '../../../xpath/xpath-service.js';
import { DbusClient } from '../../../dbus/dbus-client.js';
import type { AtspiNode } from '../node.js';
import { AtspiProvider } from '../provider.js';
import { MAX_CHILDREN } from '../tree-loader.js';
import { hasState, S } from '../states.js';
import type { FakeNode, FakeTree } from './fake-app.js';
import '../register.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const children: ChildProcess[] = [];
let daemon: ChildProcess;
let address: string;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

before(async () => {
  daemon = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  address = await new Promise<string>((resolve, reject) => {
    let out = '';
    daemon.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(line.trim());
    });
    daemon.once('exit', (code) => reject(new Error(`dbus-daemon exited with ${code}`)));
  });
});

after(async () => {
  for (const child of children) child.kill('SIGKILL');
  daemon.kill('SIGTERM');
  await sleep(50);
});

/** Starts a fake application on the private bus; resolves once it owns the registry name. */
async function startFake(tree: FakeTree): Promise<{ stop(): void; log(): Promise<string[]> }> {
  const child = spawn(process.execPath, [path.join(here, 'fake-app.js'), address, JSON.stringify(tree)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const busName = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /ready (\S+)/.exec(chunk.toString());
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`fake application exited with ${code}`)));
  });
  return {
    stop: () => child.kill('SIGKILL'),
    log: async () => {
      const client = await DbusClient.connect(address);
      try {
        const [log] = await client.call({
          destination: busName,
          path: '/',
          interface: 'org.platynui.Test',
          member: 'CallLog',
        });
        return log as string[];
      } finally {
        client.close();
      }
    },
  };
}

const ACC = 'org.a11y.atspi.Accessible';
const COMPONENT = 'org.a11y.atspi.Component';
const SHOWN = [(1 << S.Enabled) | (1 << S.Showing) | (1 << S.Visible), 0];

function idTree(): FakeTree {
  const nodes: FakeNode[] = [
    {
      path: 'root',
      role: 75,
      name: 'fake-app',
      interfaces: [ACC, 'org.a11y.atspi.Application', 'org.a11y.atspi.Collection'],
      children: ['win'],
    },
    { path: 'win', role: 23, name: 'Main', id: 'main-window', states: SHOWN, children: ['ok', 'cancel', 'panel'] },
    { path: 'ok', role: 43, name: 'OK', id: 'ok-button', states: SHOWN, interfaces: [ACC, COMPONENT], children: [] },
    { path: 'cancel', role: 43, name: 'Cancel', states: SHOWN, interfaces: [ACC, COMPONENT], children: [] },
    { path: 'panel', role: 39, name: '', states: SHOWN, children: ['status'] },
    { path: 'status', role: 29, name: 'Ready', id: 'status-label', states: SHOWN, children: [] },
  ];
  return { nodes, cache: true, collection: true };
}

async function flat(root: AtspiNode): Promise<AtspiNode[]> {
  const out: AtspiNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as AtspiNode;
    out.push(node);
    stack.push(...((await node.children()) as AtspiNode[]));
  }
  return out;
}

interface FakeContext {
  provider: AtspiProvider;
  app: AtspiNode;
  log(): Promise<string[]>;
}

/** Runs `body` with a provider on a fresh fake application (its root listed, nothing below read), and stops both. */
async function withProvider(
  tree: FakeTree,
  body: (context: FakeContext) => Promise<void>,
  options: { partialFromNodes?: number } = {},
): Promise<void> {
  const fake = await startFake(tree);
  try {
    const provider = await AtspiProvider.create({ busAddress: address, excludeProcessIds: [], ...options });
    try {
      const [app] = (await provider.roots()) as AtspiNode[];
      assert.ok(app);
      await body({ provider, app, log: fake.log });
    } finally {
      await provider.shutdown();
    }
  } finally {
    fake.stop();
  }
}

/**
 * Runs `body` with a fresh fake application and the process's AT-SPI bus address pointing at its bus (for a Runtime,
 * which finds the bus from the environment), then restores the address and stops the fake.
 */
async function onFakeBus(tree: FakeTree, body: (log: () => Promise<string[]>) => Promise<void>): Promise<void> {
  const fake = await startFake(tree);
  const previous = process.env.AT_SPI_BUS_ADDRESS;
  process.env.AT_SPI_BUS_ADDRESS = address;
  try {
    await body(fake.log);
  } finally {
    if (previous === undefined) delete process.env.AT_SPI_BUS_ADDRESS;
    else process.env.AT_SPI_BUS_ADDRESS = previous;
    fake.stop();
  }
}

/** withProvider, with the application's tree walked first. */
function withFakeApp(
  tree: FakeTree,
  body: (context: FakeContext & { walked: AtspiNode[] }) => Promise<void>,
): Promise<void> {
  return withProvider(tree, async (context) => body({ ...context, walked: await flat(context.app) }));
}

test('a complete cache loads the tree in one call; ids come in one GetTree when first asked, and are right', async () => {
  await withProvider(idTree(), async ({ app, log: callLog }) => {
    const nodes = await flat(app);
    assert.equal(nodes.length, 6);
    assert.equal(app.data.app.loadedBy, 'Cache.GetItems');
    assert.equal(app.data.app.ids, 'deferred');
    const ok = nodes.find((node) => node.name === 'OK') as AtspiNode;
    // Structure, role, name and states came without any id: the id is not known yet, and says so by contract.
    assert.equal(ok.role, 'Button');
    assert.equal(ok.id, undefined);
    assert.equal(ok.idLoaded, false);
    let log = await callLog();
    assert.ok(!log.some((line) => line.startsWith('GetTree')), log.join('\n'));
    // (The headers of the application root and its window, read per call as every root's and top-level window's
    // are, include their ids.)
    const perNodeIds = (lines: string[]) =>
      lines.filter((line) => line.startsWith('Get AccessibleId') && !/\/(root|win)$/.test(line));
    assert.deepEqual(perNodeIds(log), []);

    await ok.loadId();
    assert.equal(app.data.app.ids, 'loaded');
    // Every node of the application knows its id is definitive now, without a loadId() of its own.
    assert.ok(nodes.every((node) => node.idLoaded));
    const ids = new Map(nodes.map((node) => [node.name, node.id]));
    assert.deepEqual(
      [...ids],
      [
        ['fake-app', undefined],
        ['Main', 'main-window'],
        ['', undefined],
        ['Ready', 'status-label'],
        ['Cancel', undefined],
        ['OK', 'ok-button'],
      ],
    );
    // Attributes built before the ids came are rebuilt with them.
    const attributes = await ok.readAllAttributes();
    const id = attributes.find((entry) => entry.namespace === 'control' && entry.name === A.Id);
    assert.deepEqual(id?.value, { type: 'String', value: 'ok-button' });
    const native = attributes.find((entry) => entry.name === 'Accessible.AccessibleId');
    assert.deepEqual(native?.value, { type: 'String', value: 'ok-button' });
    const cancel = nodes.find((node) => node.name === 'Cancel') as AtspiNode;
    assert.ok(!(await cancel.readAllAttributes()).some((entry) => entry.name === A.Id), 'Id only when set');
    log = await callLog();
    // One bulk call with the id property alone, never an empty property list, no per-node reads.
    assert.deepEqual(
      log.filter((line) => line.startsWith('GetTree')),
      ['GetTree AccessibleId'],
    );
    assert.deepEqual(perNodeIds(log), []);

    // Held values: the list and its header values come without a call; after invalidate() neither is served
    // (the node is stale) until the header was read again.
    const held = ok.peekAttributes();
    assert.ok(held);
    const enabled = held.find((entry) => entry.name === A.IsEnabled);
    assert.deepEqual(enabled?.peek(), { type: 'Bool', value: true });
    ok.invalidate();
    assert.equal(ok.peekAttributes(), undefined);
    assert.equal(enabled?.peek(), undefined);
    assert.deepEqual(await enabled?.read(), { type: 'Bool', value: true });
    assert.ok(ok.peekAttributes());
  });
});

test('every attribute to be read: the bulk load brings the object attributes in its GetTree, each taken once', async () => {
  const tree = idTree();
  const attributes = { tag: 'button', 'xml-roles': 'button' };
  (tree.nodes.find((node) => node.path === 'ok') as FakeNode).attributes = attributes;
  await withProvider(tree, async ({ app, log: callLog }) => {
    app.expectAllAttributes();
    const nodes = await flat(app);
    // The ids came with them (one GetTree beside the cache call).
    assert.equal(app.data.app.ids, 'loaded');
    const ok = nodes.find((node) => node.name === 'OK') as AtspiNode;
    const cancel = nodes.find((node) => node.name === 'Cancel') as AtspiNode;
    const objectAttributes = async (node: AtspiNode) =>
      (await node.readAllAttributes()).find((entry) => entry.name === 'Accessible.Attributes')?.value;
    const expected = {
      type: 'Object',
      value: { tag: { type: 'String', value: 'button' }, 'xml-roles': { type: 'String', value: 'button' } },
    };
    assert.deepEqual(await objectAttributes(ok), expected);
    assert.deepEqual(await objectAttributes(cancel), { type: 'Object', value: {} });
    const attributeCalls = (lines: string[]) => lines.filter((line) => line.startsWith('GetAttributes'));
    let log = await callLog();
    assert.deepEqual(
      log.filter((line) => line.startsWith('GetTree')),
      ['GetTree ChildCount,AccessibleId,Attributes,text.CharacterCount,text.CaretOffset'],
    );
    assert.deepEqual(attributeCalls(log), []);
    // Taken once: read again after the values were released, they are asked for.
    ok.releaseReadValues();
    assert.deepEqual(await objectAttributes(ok), expected);
    log = await callLog();
    assert.deepEqual(attributeCalls(log), ['GetAttributes /org/a11y/atspi/accessible/ok']);
  });
});

test('without every attribute to be read, the bulk load asks for no attributes', async () => {
  await withProvider(idTree(), async ({ app, log: callLog }) => {
    await app.loadId();
    await flat(app);
    const log = await callLog();
    assert.deepEqual(
      log.filter((line) => line.startsWith('GetTree')),
      ['GetTree ChildCount,AccessibleId'],
    );
  });
});

test('a partial cache: names come with GetTree, roles per node, states and interfaces when needed and soon after', async () => {
  // Chromium started while a listener (Orca, another inspector) was registered keeps the cache it built at its start:
  // here the root and the window, none of the content. "Ready" is selectable through its panel's Selection.
  const tree = idTree();
  const panel = tree.nodes.find((node) => node.path === 'panel') as FakeNode;
  panel.interfaces = [ACC, COMPONENT, 'org.a11y.atspi.Selection'];
  const ready = tree.nodes.find((node) => node.path === 'status') as FakeNode;
  ready.states = [(SHOWN[0] as number) | (1 << S.Selectable), 0];
  await withProvider(
    { ...tree, cachedPaths: ['root', 'win'] },
    async ({ app, log: callLog }) => {
      const nodes = await flat(app);
      assert.equal(nodes.length, 6);
      assert.equal(app.data.app.loadedBy, 'Collection.GetTree+Cache.GetItems');
      const ok = nodes.find((node) => node.name === 'OK') as AtspiNode;
      assert.equal(ok.role, 'Button');
      assert.equal(nodes.find((node) => node.name === 'Ready')?.role, 'Label');
      const content = (lines: string[], verb: string) =>
        lines.filter((line) => line.startsWith(`${verb} `) && /\/(ok|cancel|panel|status)$/.test(line));
      let log = await callLog();
      assert.deepEqual(
        log.filter((line) => line.startsWith('GetTree')),
        ['GetTree ChildCount,AccessibleId,Name,Description'],
      );
      assert.equal(content(log, 'GetRole').length, 4);
      for (const verb of ['Get Name', 'Get Description', 'GetState', 'GetInterfaces'])
        assert.deepEqual(content(log, verb), [], verb);

      // A pattern that depends on the parent's interfaces waits for the parent's too: both are read first in line.
      const status = nodes.find((node) => node.name === 'Ready') as AtspiNode;
      const panelNode = nodes.find((node) => node.data.key.endsWith('/panel')) as AtspiNode;
      assert.equal(panelNode.data.partial, true);
      assert.equal(status.peekSupportedPatterns(), undefined);
      assert.ok((await status.supportedPatterns()).includes('Selectable'));
      log = await callLog();
      assert.deepEqual(content(log, 'GetState').slice(0, 2).sort(), [
        'GetState /org/a11y/atspi/accessible/panel',
        'GetState /org/a11y/atspi/accessible/status',
      ]);
      // Attributes: read, and right.
      const attributes = await ok.readAllAttributes();
      assert.deepEqual(attributes.find((entry) => entry.name === A.IsEnabled)?.value, { type: 'Bool', value: true });
      assert.deepEqual(attributes.find((entry) => entry.name === A.IsVisible)?.value, { type: 'Bool', value: true });
      assert.ok(ok.peekAttributes());

      // The first node needed started the completion of the others (it would have started 1 s after the load): each
      // is read once.
      for (let waited = 0; nodes.some((node) => node.data.partial) && waited < 10_000; waited += 50) await sleep(50);
      assert.deepEqual(
        nodes.filter((node) => node.data.partial).map((node) => node.name),
        [],
      );
      log = await callLog();
      assert.equal(content(log, 'GetState').length, 4, content(log, 'GetState').join('\n'));
      assert.equal(content(log, 'GetInterfaces').length, 4);
      const held = status.peekAttributes();
      assert.deepEqual(held?.find((entry) => entry.name === A.IsEnabled)?.peek(), { type: 'Bool', value: true });
    },
    { partialFromNodes: 1 },
  );
});

/**
 * Loads idTree() from a cache lacking its four inner nodes (the threshold set to one), ids asked before the load as
 * the XPath bridge asks: checks what the nodes show and that the names' GetTree followed the first one. Answers the
 * calls made on the nodes the cache lacked, by verb.
 */
async function loadLackingMany(tree: Partial<FakeTree> = {}): Promise<(verb: string) => string[]> {
  let calls: string[] = [];
  await withProvider(
    { ...idTree(), cachedPaths: ['root', 'win'], ...tree },
    async ({ app, log: callLog }) => {
      await app.loadId();
      const nodes = await flat(app);
      assert.equal(app.data.app.loadedBy, 'Collection.GetTree+Cache.GetItems');
      assert.deepEqual(
        nodes.map((node) => [node.role, node.name, node.id]),
        [
          ['Application', 'fake-app', undefined],
          ['Frame', 'Main', 'main-window'],
          ['Panel', '', undefined],
          ['Label', 'Ready', 'status-label'],
          ['Button', 'Cancel', undefined],
          ['Button', 'OK', 'ok-button'],
        ],
      );
      const log = await callLog();
      assert.deepEqual(
        log.filter((line) => line.startsWith('GetTree')),
        ['GetTree ChildCount,AccessibleId', 'GetTree Name,Description'],
      );
      calls = log.filter((line) => /\/(ok|cancel|panel|status)$/.test(line));
    },
    { partialFromNodes: 1 },
  );
  return (verb) => calls.filter((line) => line.startsWith(`${verb} `));
}

test('a partial cache lacking many nodes, ids asked before the load: names in a second GetTree, none read per node', async () => {
  // The XPath bridge asks for an application's ids before its children: the GetTree beside the cache call is for
  // the structure and the ids; where the cache lacks many nodes (here: from one on), the names follow in one more GetTree.
  const content = await loadLackingMany();
  assert.equal(content('GetRole').length, 4);
  for (const verb of ['Get Name', 'Get Description', 'Get AccessibleId']) assert.deepEqual(content(verb), [], verb);
});

test('a partial cache lacking many nodes whose GetTree brings no names: the roles read first, the names per node', async () => {
  // The roles are read alone; the names are taken from the GetTree entries once the second GetTree is in, and read
  // per node where the entries lack them.
  const content = await loadLackingMany({ treeProperties: ['ChildCount', 'AccessibleId'] });
  for (const verb of ['GetRole', 'Get Name', 'Get Description']) assert.equal(content(verb).length, 4, verb);
});

test('a partial cache that a walk fills: the nodes the cache asked again holds are taken from it, none left partial', async () => {
  // An application that creates its objects when GetTree walks them: the cache asked again after the walk holds
  // them. The role reads went out before its answer came; what the cache says wins, states and interfaces with it.
  const tree = idTree();
  const ready = tree.nodes.find((node) => node.path === 'status') as FakeNode;
  ready.states = [(SHOWN[0] as number) | (1 << S.Selectable), 0];
  await withProvider(
    { ...tree, cachedPaths: ['root', 'win'], cachedAfterWalk: ['ok', 'cancel', 'panel', 'status'] },
    async ({ app, log: callLog }) => {
      await app.loadId();
      const nodes = await flat(app);
      assert.deepEqual(
        nodes.map((node) => [node.role, node.name, node.id, node.data.partial]),
        [
          ['Application', 'fake-app', undefined, false],
          ['Frame', 'Main', 'main-window', false],
          ['Panel', '', undefined, false],
          ['Label', 'Ready', 'status-label', false],
          ['Button', 'Cancel', undefined, false],
          ['Button', 'OK', 'ok-button', false],
        ],
      );
      const status = nodes.find((node) => node.name === 'Ready') as AtspiNode;
      assert.ok(hasState(status.data.states, S.Selectable));
      const log = await callLog();
      assert.equal(log.filter((line) => line === 'GetItems').length, 2);
      const content = (verb: string) =>
        log.filter((line) => line.startsWith(`${verb} `) && /\/(ok|cancel|panel|status)$/.test(line));
      for (const verb of ['GetState', 'GetInterfaces', 'Get Name']) assert.deepEqual(content(verb), [], verb);
    },
    { partialFromNodes: 1 },
  );
});

test('a partial cache lacking a few nodes: they are read whole in the load, none left partial', async () => {
  await withProvider({ ...idTree(), cachedPaths: ['root', 'win'] }, async ({ app, log: callLog }) => {
    const nodes = await flat(app);
    assert.equal(nodes.length, 6);
    assert.deepEqual(
      nodes.filter((node) => node.data.partial).map((node) => node.name),
      [],
    );
    const log = await callLog();
    assert.equal(log.filter((line) => /^GetState .*\/(ok|cancel|panel|status)$/.test(line)).length, 4);
    assert.ok((nodes.find((node) => node.name === 'OK') as AtspiNode).peekAttributes());
  });
});

test('through the runtime, ids are right in attributes, XPath and a fresh load once asked', async () => {
  await onFakeBus(idTree(), async () => {
    // The fake runs in its own process, so the runtime's default exclusion of its own process does not hide it.
    const runtime = await Runtime.create({ providers: ['atspi'], platform: 'none' });
    const xpath = new XPathService(runtime);
    try {
      const { items } = await xpath.evaluate("//Button[@Id='ok-button']");
      assert.equal(items.length, 1);
      const [item] = items;
      assert.equal(item?.type === 'node' ? item.node.name : undefined, 'OK');
      const { items: labels } = await xpath.evaluate('//Label/@Id');
      assert.deepEqual(
        labels.map((entry) => (entry.type === 'attribute' ? entry.value : undefined)),
        [{ type: 'String', value: 'status-label' }],
      );
      // The runtime's Id attribute reads the definitive id.
      const top = await runtime.desktop.children();
      const app = top.find((node) => node.namespace === 'app');
      assert.ok(app);
      const [window] = await app.children();
      assert.ok(window);
      const [id] = await window.attributesNamed(A.Id);
      assert.deepEqual(id?.value, { type: 'String', value: 'main-window' });
    } finally {
      await xpath.close();
      await runtime.shutdown();
    }

    // A fresh runtime that asks for an attribute first (as a default snapshot does) gets the id as well.
    const second = await Runtime.create({ providers: ['atspi'], platform: 'none' });
    try {
      const app = (await second.desktop.children()).find((node) => node.namespace === 'app');
      const [window] = (await app?.children()) ?? [];
      const buttons = (await window?.children()) ?? [];
      const ok = buttons.find((node) => node.name === 'OK');
      assert.ok(ok);
      assert.equal(ok.role, 'Button');
      const [id] = await ok.attributesNamed(A.Id);
      assert.deepEqual(id?.value, { type: 'String', value: 'ok-button' });
      assert.equal(ok.id, 'ok-button');
      const all = await ok.attributes();
      assert.equal(all.filter((entry) => entry.namespace === 'control' && entry.name === A.Id).length, 1);
    } finally {
      await second.shutdown();
    }
  });
});

test('prefetching the applications a query reaches starts their bulk loads, ids with the structure', async () => {
  // What a query or the MCP server does first: by the time the prefetch says the trees are asked for, the bulk load
  // runs (nothing walked below the window yet), and it brings the ids with the structure.
  await onFakeBus({ ...idTree(), cachedPaths: ['root', 'win'] }, async (callLog) => {
    const runtime = await Runtime.create({ providers: ['atspi'], platform: 'none' });
    try {
      await prefetchApplications(runtime, { kind: 'all' }).requested;
      const app = (await runtime.desktop.children()).find((node) => node.namespace === 'app');
      const data = (app?.source as AtspiNode | undefined)?.data.app;
      assert.ok(data);
      assert.notEqual(data.bulk, 'none');
      const [window] = (await app?.children()) ?? [];
      assert.deepEqual(
        ((await window?.children()) ?? []).map((node) => [node.role, node.name, node.id]),
        [
          ['Button', 'OK', 'ok-button'],
          ['Button', 'Cancel', undefined],
          ['Panel', '', undefined],
        ],
      );
      assert.equal(data.loadedBy, 'Collection.GetTree+Cache.GetItems');
      const log = await callLog();
      assert.deepEqual(
        log.filter((line) => line.startsWith('GetTree')),
        ['GetTree ChildCount,AccessibleId'],
      );
      assert.deepEqual(
        log.filter((line) => /^Get AccessibleId .*\/(ok|cancel|panel|status)$/.test(line)),
        [],
      );
    } finally {
      await runtime.shutdown();
    }
  });
});

test('the lazy walk detects a child that lists its own ancestor, reports it and does not follow it', async () => {
  // No cache and no Collection: the provider walks with GetChildren. "loop" lists "win" (its grandparent) and
  // itself as children; "leaf" is fine.
  const nodes: FakeNode[] = [
    { path: 'root', role: 75, name: 'cyclic', interfaces: [ACC, 'org.a11y.atspi.Application'], children: ['win'] },
    { path: 'win', role: 23, name: 'Main', states: SHOWN, children: ['box'] },
    { path: 'box', role: 39, name: 'Box', states: SHOWN, children: ['loop', 'leaf'] },
    { path: 'loop', role: 39, name: 'Loop', states: SHOWN, children: ['win', 'loop', 'leaf2'] },
    { path: 'leaf', role: 29, name: 'Leaf', states: SHOWN, children: [] },
    { path: 'leaf2', role: 29, name: 'Leaf 2', states: SHOWN, children: [] },
  ];
  await withFakeApp({ nodes, cache: false, collection: false }, async ({ provider, app, walked }) => {
    assert.equal(app.data.app.loadedBy, 'GetChildren');
    assert.deepEqual(walked.map((node) => node.name).sort(), ['Box', 'Leaf', 'Leaf 2', 'Loop', 'Main', 'cyclic']);
    const loop = walked.find((node) => node.name === 'Loop') as AtspiNode;
    assert.deepEqual(
      (await loop.children()).map((node) => node.name),
      ['Leaf 2'],
    );
    const problems = app.data.app.problems.join('\n');
    assert.match(problems, /cycle: atspi:\/\/\S+\/org\/a11y\/atspi\/accessible\/win is listed as a child/);
    assert.match(problems, /cycle: atspi:\/\/\S+\/org\/a11y\/atspi\/accessible\/loop is listed as a child/);
    const status = provider.status();
    assert.match(String(status.details?.problems), /cycle/);
  });
});

test(
  'an absurd child count and children list are reported and cut off; the walk stays bounded',
  { timeout: 60_000 },
  async () => {
    // "box" claims 2^31-1 children (Properties, cache item, GetTree) and GetChildren lists its three real children over
    // and over, more than MAX_CHILDREN entries. The cache cannot be trusted for it, GetTree reports the absurd count,
    // the lazy walk cuts the list at MAX_CHILDREN and follows each distinct child once; the rest of the tree is whole.
    const listed = MAX_CHILDREN + 7;
    const nodes: FakeNode[] = [
      {
        path: 'root',
        role: 75,
        name: 'absurd',
        interfaces: [ACC, 'org.a11y.atspi.Application', 'org.a11y.atspi.Collection'],
        children: ['win'],
      },
      { path: 'win', role: 23, name: 'Main', states: SHOWN, children: ['box', 'side'] },
      {
        path: 'box',
        role: 39,
        name: 'Box',
        states: SHOWN,
        children: ['a', 'b', 'c'],
        childCount: 2_147_483_647,
        listedChildren: listed,
      },
      { path: 'a', role: 29, name: 'A', states: SHOWN, children: [] },
      { path: 'b', role: 29, name: 'B', states: SHOWN, children: [] },
      { path: 'c', role: 29, name: 'C', states: SHOWN, children: [] },
      { path: 'side', role: 39, name: 'Side', states: SHOWN, children: ['d'] },
      { path: 'd', role: 43, name: 'D', states: SHOWN, children: [] },
    ];
    await withFakeApp({ nodes, cache: true, collection: true }, async ({ provider, app, walked, log }) => {
      assert.equal(app.data.app.loadedBy, 'GetChildren');
      assert.deepEqual(walked.map((node) => node.name).sort(), ['A', 'B', 'Box', 'C', 'D', 'Main', 'Side', 'absurd']);
      const box = walked.find((node) => node.name === 'Box') as AtspiNode;
      assert.deepEqual(
        (await box.children()).map((node) => node.name),
        ['A', 'B', 'C'],
      );
      assert.equal(box.data.childCount, 3);

      const problems = app.data.app.problems.join('\n');
      assert.match(problems, /\/box reports 2147483647 children \(absurd child count\)/);
      const cut = `/box reports ${listed} children; only the first ${MAX_CHILDREN} are shown \\(absurd child count\\)`;
      assert.match(problems, new RegExp(cut));
      assert.match(String(provider.status().details?.problems), /absurd child count/);

      // Each distinct child was read once, and the absurd list was asked for once.
      const calls = await log();
      const count = (line: string) => calls.filter((entry) => entry === line).length;
      assert.equal(count('GetChildren /org/a11y/atspi/accessible/box'), 1);
      for (const child of ['a', 'b', 'c']) assert.equal(count(`GetRole /org/a11y/atspi/accessible/${child}`), 1);
      assert.ok(calls.length < 200, `bounded walk: ${calls.length} calls`);
    });
  },
);

test("an application's windows come by GetChildren; the bulk load starts below a window and keeps its node", async () => {
  await withProvider(idTree(), async ({ provider, app, log: callLog }) => {
    const [window] = (await app.children()) as AtspiNode[];
    assert.equal(window?.name, 'Main');
    let log = await callLog();
    // Listing the desktop's children loads no whole application.
    assert.ok(!log.includes('GetItems'), log.join('\n'));
    assert.ok(!log.some((line) => line.startsWith('GetTree')), log.join('\n'));
    assert.ok(log.includes('GetChildren /org/a11y/atspi/accessible/root'), log.join('\n'));
    assert.equal(app.data.app.bulk, 'none');
    assert.equal(provider.store.nodes.size, 2);

    const below = await window!.children();
    assert.deepEqual(
      below.map((node) => node.name),
      ['OK', 'Cancel', ''],
    );
    log = await callLog();
    assert.equal(log.filter((line) => line === 'GetItems').length, 1);
    assert.equal(app.data.app.loadedBy, 'Cache.GetItems');
    // The window known before the bulk load is the one the bulk load filled.
    assert.equal(((await app.children()) as AtspiNode[])[0], window);
    assert.equal(provider.store.get(window!.runtimeId), window!.data);
    assert.equal(provider.store.nodes.size, 6);
  });
});

/** Variants as their signature and value, Buffers as bytes, whichever implementation made them. */
function plain(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return { bytes: [...value] };
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    if ('signature' in value && 'value' in value) {
      return {
        variant: (value as { signature: unknown }).signature,
        value: plain((value as { value: unknown }).value),
      };
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

test('on a real dbus-daemon: signals sent by another D-Bus implementation arrive value for value; NameOwnerChanged when a peer leaves', async () => {
  const { default: dbusNext } = await import('dbus-next');
  const { toDbusNextAddress } = await import('../../../../e2e/support/atspi-bus.js');
  const client = await DbusClient.connect(address);
  const other = dbusNext.sessionBus({ busAddress: toDbusNextAddress(address) as string });
  try {
    await new Promise((resolve) => other.once('connect', resolve));
    const otherName = (other as unknown as { name: string }).name;
    const received: Array<{ member: string; sender: string; body: unknown[] }> = [];
    client.onSignal((signal) => received.push({ member: signal.member, sender: signal.sender, body: signal.body }));
    await client.addMatch("type='signal',interface='org.platynui.Test'");
    await client.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'");
    const { Variant } = dbusNext;
    const sent: Array<[string, unknown[]]> = [
      ['siiv(so)', ['object:state-changed:focused', 1, 0, new Variant('i', 0), [otherName, '/a']]],
      [
        'sa{sv}as',
        ['org.a11y.atspi.Accessible', { Name: new Variant('s', 'ünïcødé ✓'), N: new Variant('as', ['a']) }, []],
      ],
      [
        'a((so)(so)(so)iiassusau)',
        [[[[otherName, '/1'], [otherName, '/r'], [otherName, '/0'], 2, 0, ['x'], 'n', 7, '', [1, 2]]]],
      ],
      ['xtayd', [-(2n ** 40n), 2n ** 63n, Buffer.from([0, 255]), -0.5]],
    ];
    for (const [signature, body] of sent) {
      other.send(
        new dbusNext.Message({
          type: dbusNext.MessageType.SIGNAL,
          path: '/p',
          interface: 'org.platynui.Test',
          member: 'S',
          signature,
          body,
        }),
      );
    }
    const until = Date.now() + 3000;
    while (received.filter((s) => s.member === 'S').length < sent.length && Date.now() < until) await sleep(10);
    const signals = received.filter((s) => s.member === 'S');
    assert.deepEqual(
      signals.map((s) => plain(s.body)),
      sent.map(([, body]) => plain(body)),
    );
    assert.ok(signals.every((s) => s.sender === otherName));
    other.disconnect();
    while (!received.some((s) => s.member === 'NameOwnerChanged' && s.body[0] === otherName) && Date.now() < until) {
      await sleep(10);
    }
    assert.deepEqual(received.find((s) => s.member === 'NameOwnerChanged' && s.body[0] === otherName)?.body, [
      otherName,
      otherName,
      '',
    ]);
  } finally {
    client.close();
  }
});
