// The details store over the protocol client, against the real dispatcher on the mock provider.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDetailsStore, groupAttributes } from '../stores/details-store.js';
import { connectedHost } from './support/host.js';

const OK = 'mock:button-toolbar-ok';

async function setup(t: { after(fn: () => void | Promise<void>): void }) {
  const { host, client } = await connectedHost(t);
  // The host knows a node once something read it: the tree does that, here XPath does.
  await client.evaluate('//*').done;
  return { host, client, details: createDetailsStore(client) };
}

test('attributes load for the shown node, grouped by namespace, with derived aliases marked', async (t) => {
  const { client, details } = await setup(t);
  await details.getState().show(await client.node(OK));
  const state = details.getState();
  const groups = groupAttributes(state.attributes, state.sort, '');
  assert.equal(groups[0]!.namespace, 'control');
  const control = groups[0]!.entries;
  assert.deepEqual(
    control.filter((e) => e.name.startsWith('Bounds')).map((e) => [e.name, e.derived]),
    [
      ['Bounds', false],
      ['Bounds.Height', true],
      ['Bounds.Width', true],
      ['Bounds.X', true],
      ['Bounds.Y', true],
    ],
  );
  assert.deepEqual(control.find((e) => e.name === 'Name')?.value, { type: 'String', value: 'OK' });
  assert.deepEqual(
    state.patterns.map((p) => p.name),
    ['Element', 'Focusable', 'Activatable', 'ActivationTarget'],
  );
  assert.deepEqual(state.patterns.find((p) => p.name === 'Activatable')?.actions, ['activate']);
});

test('sorting toggles direction and the filter matches names and values', async (t) => {
  const { client, details } = await setup(t);
  await details.getState().show(await client.node(OK));
  details.getState().setSort('type');
  details.getState().setSort('type');
  assert.equal(details.getState().sort.descending, true);
  const byType = groupAttributes(details.getState().attributes, details.getState().sort, '');
  const types = byType[0]!.entries.map((e) => e.value.type);
  assert.deepEqual(types, [...types].sort().reverse(), 'descending by type');
  const filtered = groupAttributes(details.getState().attributes, details.getState().sort, 'toolbar-ok');
  const names = (groups: typeof filtered) => groups.flatMap((g) => g.entries.map((e) => `${e.namespace}:${e.name}`));
  assert.deepEqual(names(filtered), ['control:Id', 'control:RuntimeId'], 'values match too');
  assert.deepEqual(names(groupAttributes(details.getState().attributes, details.getState().sort, 'isfocus')), [
    'control:IsFocused',
  ]);
});

test('an action runs with the revision shown; a node changed since then is refused as stale', async (t) => {
  const { host, client, details } = await setup(t);
  await details.getState().show(await client.node(OK));
  const done = await details.getState().perform('activate');
  assert.equal(done.ok, true, done.message);
  assert.deepEqual(host.provider.log, [`activate ${OK}`]);
  // The button takes the focus (through another connection): it changed since the details showed it.
  const other = host.connect();
  const fresh = await other.node(OK);
  await other.action(OK, fresh.revision, 'focus');
  const refused = await details.getState().perform('activate');
  assert.equal(refused.ok, false);
  assert.equal(refused.stale, true, refused.message);
  assert.match(refused.message, /^Refused: /);
  assert.equal(details.getState().outcomes.activate, refused);
  assert.deepEqual(host.provider.log, [`activate ${OK}`, `focus ${OK}`], 'the refused action never ran');
});

test('a node marked stale is refused without asking the host', async (t) => {
  const { host, client, details } = await setup(t);
  await details.getState().show({ ...(await client.node(OK)), stale: true });
  const outcome = await details.getState().perform('activate');
  assert.equal(outcome.stale, true);
  assert.deepEqual(host.provider.log, []);
});

test('an action the node has no pattern for is refused by the host with its reason', async (t) => {
  const { client, details } = await setup(t);
  await details.getState().show(await client.node(OK));
  const outcome = await details.getState().perform('toggle');
  assert.equal(outcome.ok, false);
  assert.equal(outcome.stale, false);
  assert.match(outcome.message, /^toggle failed: .*no pattern with the action "toggle"/);
});

test('a late answer for a node no longer shown is dropped', async (t) => {
  const { client, details } = await setup(t);
  const first = details.getState().show(await client.node(OK));
  const second = details.getState().show(await client.node('platynui:Desktop'));
  await Promise.all([first, second]);
  assert.equal(details.getState().node?.runtimeId, 'platynui:Desktop');
  assert.deepEqual(details.getState().attributes.find((a) => a.name === 'RuntimeId')?.value, {
    type: 'String',
    value: 'platynui:Desktop',
  });
});
