import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateDemoTree } from '../api/demo-tree.js';
import { MemoryApi } from '../api/memory-api.js';
import type { NodeView } from '../api/types.js';
import { createSessionStore } from '../stores/session-store.js';
import { createSettingsStore, SETTINGS_KEY, type KeyValueStorage } from '../stores/settings-store.js';

function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

test('settings persist across stores and survive a corrupt entry', () => {
  const storage = memoryStorage();
  const first = createSettingsStore(storage);
  first.getState().setPanel('tree', 512.4);
  first.getState().update({ theme: 'dark', xpathHistory: ['//Button'] });
  const second = createSettingsStore(storage);
  assert.equal(second.getState().panels.tree, 512);
  assert.equal(second.getState().panels.console, 300, 'defaults fill panels never resized');
  assert.equal(second.getState().theme, 'dark');
  assert.deepEqual(second.getState().xpathHistory, ['//Button']);
  storage.data.set(SETTINGS_KEY, '{not json');
  assert.equal(createSettingsStore(storage).getState().theme, 'system');
});

test('pick mode: hover events update the stack, cycling moves along it, accept returns the node', async () => {
  const memory = new MemoryApi(generateDemoTree(10));
  const revealed: NodeView[] = [];
  const session = createSessionStore(memory, { onReveal: (node) => revealed.push(node) });
  memory.subscribe((event) => session.getState().handleEvent(event));
  await session.getState().connect();
  await session.getState().startPick();
  assert.equal(session.getState().picking, true);
  const button = generateDemoTree(10).children![0]!.children![0]!.children![0]!.id;
  const window = generateDemoTree(10).children![0]!.children![0]!.id;
  memory.hover([button, window]);
  assert.equal(session.getState().pickNode?.runtimeId, button);
  assert.equal(session.getState().pickStackSize, 2);
  await session.getState().cyclePick(1);
  assert.equal(session.getState().pickNode?.runtimeId, window);
  assert.equal(session.getState().pickDepth, 1);
  const picked = await session.getState().stopPick(true);
  assert.equal(picked?.runtimeId, window);
  assert.equal(session.getState().picking, false);
  memory.emit({ type: 'pick-end', node: memory.view(button) });
  assert.deepEqual(
    revealed.map((n) => n.runtimeId),
    [button],
  );
});

test('Escape-style cancel returns nothing; the accessibility-off state switches on', async () => {
  const memory = new MemoryApi(generateDemoTree(10));
  memory.accessibility = 'off';
  const session = createSessionStore(memory, { onReveal: () => undefined });
  const info = await session.getState().connect();
  assert.equal(info?.accessibility, 'off');
  await session.getState().enableAccessibility();
  assert.equal(session.getState().info?.accessibility, 'on');
  await session.getState().startPick();
  memory.hover(['desktop']);
  assert.equal(await session.getState().stopPick(false), undefined);
});

test('pick mode says whether a click selects; a host-side cancel (Escape, right click) ends it', async () => {
  const memory = new MemoryApi(generateDemoTree(10));
  const session = createSessionStore(memory, { onReveal: () => undefined });
  memory.subscribe((event) => session.getState().handleEvent(event));
  await session.getState().startPick();
  assert.equal(session.getState().pickByClick, false);
  assert.match(session.getState().message?.text ?? '', /clicks are not captured: no pointer to capture/);
  await session.getState().stopPick(false);
  memory.pickClickSelects = true;
  await session.getState().startPick();
  assert.equal(session.getState().pickByClick, true);
  assert.match(session.getState().message?.text ?? '', /a click \(it does not reach the application\)/);
  memory.emit({ type: 'pick-end' });
  assert.equal(session.getState().picking, false);
  assert.equal(session.getState().message?.text, 'Pick cancelled');
});

test('follow focus reveals focused nodes only while it is on', async () => {
  const memory = new MemoryApi(generateDemoTree(10));
  const revealed: string[] = [];
  const session = createSessionStore(memory, { onReveal: (node) => revealed.push(node.runtimeId) });
  memory.subscribe((event) => session.getState().handleEvent(event));
  memory.emit({ type: 'focus-changed', node: memory.view('desktop') });
  await session.getState().setFollowFocus(true);
  assert.equal(memory.followFocus, true);
  memory.emit({ type: 'focus-changed', node: memory.view('desktop') });
  assert.deepEqual(revealed, ['desktop']);
});
