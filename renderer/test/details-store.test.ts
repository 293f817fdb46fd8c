import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryApi } from '../api/memory-api.js';
import { createDetailsStore, groupAttributes } from '../stores/details-store.js';

function api() {
  return new MemoryApi({
    id: 'desktop',
    role: 'Desktop',
    children: [
      {
        id: 'ok',
        role: 'Button',
        name: 'OK',
        patterns: ['Element', 'Activatable'],
        attributes: {
          Bounds: { type: 'Rect', value: { x: 1, y: 2, width: 30, height: 40 } },
          IsEnabled: { type: 'Bool', value: true },
          'native:Role': { type: 'String', value: 'push button' },
        },
      },
    ],
  });
}

test('attributes load for the shown node, grouped by namespace, with derived aliases marked', async () => {
  const memory = api();
  const details = createDetailsStore(memory);
  await details.getState().show(memory.view('ok'));
  const state = details.getState();
  const groups = groupAttributes(state.attributes, state.sort, '');
  assert.deepEqual(
    groups.map((g) => g.namespace),
    ['control', 'native'],
  );
  const control = groups[0]!.entries.map((e) => e.name);
  assert.deepEqual(control, [
    'Bounds',
    'Bounds.Height',
    'Bounds.Width',
    'Bounds.X',
    'Bounds.Y',
    'IsEnabled',
    'Name',
    'Role',
    'RuntimeId',
  ]);
  assert.equal(groups[0]!.entries.find((e) => e.name === 'Bounds.X')?.derived, true);
  assert.equal(groups[0]!.entries.find((e) => e.name === 'Bounds')?.derived, undefined);
  assert.deepEqual(
    state.patterns.map((p) => p.name),
    ['Element', 'Activatable'],
  );
  assert.deepEqual(state.patterns[1]!.actions, ['activate']);
});

test('sorting toggles direction and the filter matches names and values', async () => {
  const memory = api();
  const details = createDetailsStore(memory);
  await details.getState().show(memory.view('ok'));
  details.getState().setSort('type');
  details.getState().setSort('type');
  const byType = groupAttributes(details.getState().attributes, details.getState().sort, '');
  assert.equal(details.getState().sort.descending, true);
  assert.equal(byType[0]!.entries[0]!.value.type, 'String');
  const filtered = groupAttributes(details.getState().attributes, details.getState().sort, 'push');
  assert.deepEqual(
    filtered.flatMap((g) => g.entries.map((e) => `${e.namespace}:${e.name}`)),
    ['native:Role'],
  );
});

test('an action runs with the revision shown; a node changed since then is refused as stale', async () => {
  const memory = api();
  const details = createDetailsStore(memory);
  await details.getState().show(memory.view('ok'));
  const done = await details.getState().perform('activate');
  assert.equal(done.ok, true);
  assert.deepEqual(memory.actions, [{ runtimeId: 'ok', action: 'activate', args: undefined, revision: 0 }]);
  memory.rename('ok', 'Okay');
  const refused = await details.getState().perform('activate');
  assert.equal(refused.ok, false);
  assert.equal(refused.stale, true);
  assert.match(refused.message, /^Refused: .*changed since it was shown/);
  assert.equal(details.getState().outcomes.activate, refused);
  assert.equal(memory.actions.length, 1, 'the refused action never ran');
});

test('a node marked stale is refused without asking the host', async () => {
  const memory = api();
  const details = createDetailsStore(memory);
  await details.getState().show({ ...memory.view('ok'), stale: true });
  const outcome = await details.getState().perform('activate');
  assert.equal(outcome.stale, true);
  assert.equal(memory.actions.length, 0);
});

test('a late answer for a node no longer shown is dropped', async () => {
  const memory = api();
  memory.delayMs = 30;
  const details = createDetailsStore(memory);
  const first = details.getState().show(memory.view('ok'));
  const second = details.getState().show(memory.view('desktop'));
  await Promise.all([first, second]);
  assert.equal(details.getState().node?.runtimeId, 'desktop');
  assert.equal(details.getState().attributes.find((a) => a.name === 'RuntimeId')?.value.type, 'String');
  assert.deepEqual(details.getState().attributes.find((a) => a.name === 'RuntimeId')?.value, {
    type: 'String',
    value: 'desktop',
  });
});
