// The host state and settings stores, and how the inspector's stores work together, over the protocol client against
// the real dispatcher on the mock provider and the mock platform.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { NodeSummary } from '../../shared/api/schema.js';
import { createHostStateStore, selectCapabilities } from '../stores/host-state-store.js';
import { CACHE_KEY, createSettingsStore, type KeyValueStorage } from '../stores/settings-store.js';
import { createInspector } from '../stores/wiring.js';
import { connectedHost, openMockHost } from './support/host.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

test('settings live in the host: they survive a restart of the host (another port, no page cache)', async () => {
  const first = await openMockHost();
  const settingsFile = first.settingsFile;
  try {
    const settings = createSettingsStore({ saveDelayMs: 5 });
    await settings.getState().load(first.connect());
    assert.equal(settings.getState().source, 'host');
    settings.getState().setPanel('tree', 512.4);
    settings.getState().update({ theme: 'dark', xpathHistory: ['//Button'], followFocus: true });
    await settings.getState().flush();
    // the host writes its settings file soon after it answered (coalesced, asynchronous)
    const written = () => {
      try {
        return JSON.parse(readFileSync(settingsFile, 'utf8')) as { [key: string]: unknown };
      } catch {
        return {};
      }
    };
    await until(() => written()['ui.theme'] === 'dark', 'the host to write its settings file');
  } finally {
    await first.context.close();
  }
  // A fresh host over the same settings file, a fresh page without any cache (the origin changed with the port).
  const second = await openMockHost({ settingsFile });
  try {
    const settings = createSettingsStore();
    assert.equal(settings.getState().source, 'defaults');
    await settings.getState().load(second.connect());
    const state = settings.getState();
    assert.equal(state.panels.tree, 512);
    assert.equal(state.panels.console, 300, 'defaults fill panels never resized');
    assert.equal(state.theme, 'dark');
    assert.equal(state.followFocus, true);
    assert.deepEqual(state.xpathHistory, ['//Button']);
  } finally {
    await second.close();
  }
});

test('the cache paints first; the host wins; a change made before the host answered is kept; bad values are ignored', async (t) => {
  const { client } = await connectedHost(t);
  await client.setSettings({ 'ui.theme': 'light', 'ui.liveEvaluate': false, 'ui.panels': { tree: 'wide' } });
  const cache = memoryStorage();
  cache.data.set(CACHE_KEY, JSON.stringify({ theme: 'dark', lastExpression: '//Edit', panels: { tree: 600 } }));
  const settings = createSettingsStore({ cache, saveDelayMs: 5 });
  assert.equal(settings.getState().source, 'cache');
  assert.equal(settings.getState().theme, 'dark');
  settings.getState().update({ lastExpression: '//Window' });
  await settings.getState().load(client);
  const state = settings.getState();
  assert.equal(state.theme, 'light', "the host's value wins over the cache");
  assert.equal(state.liveEvaluate, false);
  assert.equal(state.lastExpression, '//Window', 'typed before the host answered');
  assert.equal(state.panels.tree, 440, 'a size of the wrong type is ignored');
  assert.equal((await client.getSettings()).settings['ui.lastExpression'], '//Window', 'and saved to the host');
  assert.equal(JSON.parse(cache.data.get(CACHE_KEY)!).theme, 'light', 'the cache follows the host');
  cache.data.set(CACHE_KEY, '{not json');
  assert.equal(createSettingsStore({ cache }).getState().source, 'defaults');
});

test('the host reports its capabilities: the mock platform has a pointer and a highlight, the mock reports focus', async (t) => {
  const { client } = await connectedHost(t);
  const hostState = createHostStateStore(client, { onReveal: () => undefined });
  assert.deepEqual(selectCapabilities(hostState.getState()), {
    pick: false,
    highlight: false,
    followFocus: false,
    locators: false,
    stop: false,
    screen: false,
    interact: false,
    record: false,
  });
  const info = await hostState.getState().connect();
  assert.equal(info?.desktop.runtimeId, 'platynui:Desktop');
  assert.deepEqual(selectCapabilities(hostState.getState()), {
    pick: true,
    highlight: true,
    followFocus: true,
    locators: true,
    stop: false,
    screen: true,
    interact: true,
    record: true,
  });
  assert.deepEqual(
    info?.status.providers.map((p) => `${p.displayName} (${p.state})`),
    ['Mock provider (ready)'],
  );
});

test('pick mode: the pointer over an element hovers it, cycling moves towards the window, selecting returns it', async (t) => {
  const { host, client } = await connectedHost(t);
  await client.evaluate('//*').done;
  const revealed: NodeSummary[] = [];
  const hostState = createHostStateStore(client, { onReveal: (node) => revealed.push(node) });
  client.onAny((event) => hostState.getState().handleEvent(event));
  await hostState.getState().connect();
  await hostState.getState().startPick();
  assert.equal(hostState.getState().picking, true);
  await host.context.runtime.platform!.pointer!.moveTo({ x: 150, y: 130 });
  await until(() => hostState.getState().pickNode?.runtimeId === 'mock:button-toolbar-ok', 'the hover on OK');
  assert.ok(hostState.getState().pickStackSize >= 2, `stack of ${hostState.getState().pickStackSize}`);
  await hostState.getState().cyclePick(-1);
  await until(() => hostState.getState().pickDepth === 1, 'the cycle towards the window');
  assert.equal(hostState.getState().pickNode?.runtimeId, 'mock:pane-toolbar');
  const picked = await hostState.getState().stopPick(true);
  assert.equal(picked?.runtimeId, 'mock:pane-toolbar');
  assert.equal(hostState.getState().picking, false);
  assert.equal(hostState.getState().message?.text, 'Picked');
});

test('pick mode ends when the host stops it; cancelling returns nothing', async (t) => {
  const { client } = await connectedHost(t);
  const hostState = createHostStateStore(client, { onReveal: () => undefined });
  client.onAny((event) => hostState.getState().handleEvent(event));
  await hostState.getState().startPick();
  assert.equal(await hostState.getState().stopPick(false), undefined);
  assert.equal(hostState.getState().message?.text, 'Pick cancelled');
  await hostState.getState().startPick();
  // Another connection starts picking: the host stops this one (`pick.stopped`).
  await client.request('pick.start', {});
  await until(() => !hostState.getState().picking, 'pick.stopped');
});

test('follow focus: a focus change in the application reveals the node in the tree only while it is on', async (t) => {
  const { host, client } = await connectedHost(t);
  const inspector = createInspector(client, { settingsSaveDelayMs: 5 });
  t.after(() => inspector.stop());
  const { tree, settings } = inspector.stores;
  await inspector.loadSettings();
  await inspector.start();
  const app = host.connect();
  await app.evaluate('//*').done;
  const focus = async (runtimeId: string) => {
    const node = await app.node(runtimeId);
    await app.action(runtimeId, node.revision, 'focus');
  };
  await focus('mock:edit-search');
  await sleep(200);
  assert.equal(tree.getState().selectedId, undefined, 'follow focus is off');
  settings.getState().update({ followFocus: true });
  await focus('mock:edit-user');
  await until(() => tree.getState().selectedId === 'mock:edit-user', 'the focused node selected');
  const row = tree.getState().rows[tree.getState().selectedIndex];
  assert.equal(row?.node.name, 'User');
  assert.deepEqual(
    ['mock:app-login', 'mock:window-login'].map((id) => tree.getState().expanded.has(id)),
    [true, true],
  );
});

test('the console starts from the host: its last expression, live switch and history', async (t) => {
  const { client } = await connectedHost(t);
  await client.setSettings({ 'ui.lastExpression': '//Edit', 'ui.xpathHistory': ['//Edit', '//Button'] });
  const inspector = createInspector(client);
  t.after(() => inspector.stop());
  await inspector.loadSettings();
  const { xpath, settings } = inspector.stores;
  assert.equal(xpath.getState().expression, '//Edit');
  assert.deepEqual(xpath.getState().history, ['//Edit', '//Button']);
  await xpath.getState().evaluate('//Window');
  assert.deepEqual(settings.getState().xpathHistory, ['//Window', '//Edit', '//Button']);
});
