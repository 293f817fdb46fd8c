import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { InspectorClient } from '../../../shared/api/client.js';
import type { EvaluationItem, InspectorEvent } from '../../../shared/api/schema.js';
import { MockDevices } from '../../../main/platform/mock/mock-platform.js';
import { DEFAULT_MOCK_SECRET } from '../../providers/mock/default-tree.js';
import { pickedByApi, pickedByCli } from './pick-agreement.js';
import { openHost, type HostFixture } from './support.js';
import { rejection } from '../../../e2e/support/rejection.js';

let fixture: HostFixture;
let client: InspectorClient;

before(async () => {
  fixture = await openHost({ providers: ['mock'], platform: 'mock' });
  ({ client } = await fixture.connect());
});
after(async () => {
  await fixture.close();
});

/** Reaches every node once (as the UI's tree walk or an XPath would), so tests can address nodes by runtime id. */
async function materialize(): Promise<void> {
  await client.evaluate('//*').done;
}

test('desktop and children in ranges return node summaries', async () => {
  const desktop = await client.desktop();
  assert.equal(desktop.node.runtimeId, 'platynui:Desktop');
  assert.equal(desktop.node.role, 'Desktop');
  assert.equal(desktop.technology, 'Mock');
  const top = await client.children('platynui:Desktop');
  assert.equal(top.total, 2);
  assert.deepEqual(
    top.nodes.map((node) => `${node.namespace}:${node.role} ${node.name}`),
    ['app:Application Studio', 'app:Application Login'],
  );
  const windows = await client.children('mock:app-studio');
  assert.deepEqual(
    windows.nodes.map((node) => node.runtimeId),
    ['mock:window-studio', 'mock:window-preferences'],
  );
  const unknown = await rejection(client.children('mock:list-results'));
  assert.equal(unknown.code, 'stale-node', 'nodes are known once the tree (or an XPath) reached them');
  await materialize();
  const list = await client.children('mock:list-results', { offset: 1, limit: 1 });
  assert.equal(list.total, 3);
  assert.equal(list.offset, 1);
  assert.deepEqual(
    list.nodes.map((node) => [node.runtimeId, node.namespace, node.role, node.name, node.stale]),
    [['mock:listitem-2', 'item', 'ListItem', 'Second result', false]],
  );
  const again = await client.children('mock:window-studio');
  const toolbar = await client.children(again.nodes[0]!.runtimeId);
  assert.deepEqual(
    toolbar.nodes.map((node) => [node.name, node.id]),
    [
      ['OK', 'toolbar-ok'],
      ['Save', undefined],
      ['Auto save', 'auto-save'],
    ],
  );
  assert.equal((await client.node('mock:pane-toolbar')).childCount, 3);
  const ancestors = await client.ancestors('mock:button-save');
  assert.deepEqual(
    ancestors.nodes.map((node) => node.runtimeId),
    ['platynui:Desktop', 'mock:app-studio', 'mock:window-studio', 'mock:pane-toolbar'],
  );
});

test('attributes are typed, derived aliases are marked, secure values never appear', async () => {
  await materialize();
  const { attributes, revision } = await client.attributes('mock:checkbox-autosave');
  assert.equal(typeof revision, 'number');
  const bounds = attributes.find((entry) => entry.name === 'Bounds');
  assert.deepEqual(bounds, {
    namespace: 'control',
    name: 'Bounds',
    value: { type: 'Rect', value: { x: 300, y: 115, width: 120, height: 30 } },
    derived: false,
  });
  assert.deepEqual(
    attributes.find((entry) => entry.name === 'Bounds.X'),
    { namespace: 'control', name: 'Bounds.X', value: { type: 'Integer', value: 300 }, derived: true },
  );
  assert.deepEqual(attributes.find((entry) => entry.name === 'IsEnabled')?.value, { type: 'Bool', value: true });
  const secret = await client.attributes('mock:password');
  assert.ok(!JSON.stringify(secret).includes(DEFAULT_MOCK_SECRET));
  assert.ok(!secret.attributes.some((entry) => entry.name === 'Text' || entry.name === 'Value'));
  assert.deepEqual(secret.attributes.find((entry) => entry.name === 'IsSecure')?.value, { type: 'Bool', value: true });
});

test('patterns list their attributes and actions', async () => {
  await materialize();
  const { patterns } = await client.patterns('mock:checkbox-autosave');
  const toggle = patterns.find((pattern) => pattern.name === 'Toggleable');
  assert.deepEqual(toggle?.actions, ['toggle']);
  assert.equal(toggle?.kind, 'runtime');
  assert.deepEqual(
    toggle?.attributes.map((entry) => [entry.name, entry.value]),
    [['ToggleState', { type: 'String', value: 'Off' }]],
  );
  assert.deepEqual(toggle?.missing, []);
  const element = patterns.find((pattern) => pattern.name === 'Element');
  assert.deepEqual(element?.attributes.map((entry) => entry.name).sort(), [
    'Bounds',
    'IsEnabled',
    'IsVisible',
    'Technology',
  ]);
});

test('a pattern action runs; with an old revision it is refused as stale-node', async () => {
  await materialize();
  const shown = await client.node('mock:checkbox-autosave');
  const result = await client.action('mock:checkbox-autosave', shown.revision, 'toggle');
  assert.ok(result.node.revision > shown.revision, 'the toggle changed the node');
  const after = await client.attributes('mock:checkbox-autosave');
  assert.deepEqual(after.attributes.find((entry) => entry.name === 'ToggleState')?.value, {
    type: 'String',
    value: 'On',
  });
  const stale = await rejection(client.action('mock:checkbox-autosave', shown.revision, 'toggle'));
  assert.equal(stale.code, 'stale-node');
  assert.match(stale.message, /changed since it was shown/);
  const unsupported = await rejection(client.action('mock:checkbox-autosave', result.node.revision, 'expand'));
  assert.equal(unsupported.code, 'unsupported');
  assert.match(unsupported.message, /no pattern with the action "expand"/);
  const flaky = await client.node('mock:button-flaky');
  const failed = await rejection(client.action('mock:button-flaky', flaky.revision, 'focus'));
  assert.equal(failed.code, 'action-failed');
  assert.equal(failed.runtimeId, 'mock:button-flaky', "the provider's error names its node on the client");
  const unknown = await rejection(client.action('mock:nothing', 0, 'focus'));
  assert.equal(unknown.code, 'stale-node');
  assert.equal(unknown.runtimeId, 'mock:nothing');
});

test('evaluate streams items, then the summary; syntax errors carry the position', async () => {
  const streamed: EvaluationItem[] = [];
  const handle = client.evaluate("(//Button[@Name='OK'], //Window[@Name='Sign in']/@Bounds, count(//Window))", {
    onItems: (items) => streamed.push(...items),
  });
  const summary = await handle.done;
  assert.equal(summary.id, handle.id);
  assert.equal(summary.count, 5);
  assert.equal(summary.engine, 'fontoxpath');
  assert.ok(summary.ms >= 0);
  assert.equal(streamed.length, 5);
  assert.deepEqual(
    streamed.slice(0, 3).map((item) => (item.type === 'node' ? item.node.name : item.type)),
    ['OK', 'OK', 'OK'],
  );
  const attribute = streamed[3]!;
  assert.equal(attribute.type, 'attribute');
  if (attribute.type === 'attribute') {
    assert.equal(attribute.owner.runtimeId, 'mock:window-login');
    assert.deepEqual(attribute.value, { type: 'Rect', value: { x: 4000, y: 200, width: 500, height: 300 } });
  }
  assert.deepEqual(streamed[4], { type: 'value', value: { type: 'Integer', value: 3 } });

  const inContext = await client.evaluate('.//Button', { contextRuntimeId: 'mock:window-login' }).done;
  assert.equal(inContext.count, 1);

  const bad = await rejection(client.evaluate('//Button[@Name=').done);
  assert.equal(bad.code, 'xpath-syntax');
  assert.ok(bad.position && bad.position.offset > 0, JSON.stringify(bad.toData()));
});

test('a paged evaluation answers its first page; the next pages are the items an unpaged one streams', async () => {
  const query = "(//Button[@Name='OK'], //Window[@Name='Sign in']/@Bounds, count(//Window))";
  const streamed: EvaluationItem[] = [];
  await client.evaluate(query, { onItems: (items) => streamed.push(...items) }).done;
  const first = await client.evaluate(query, { pageSize: 2 }).done;
  assert.equal(first.count, 5);
  assert.deepEqual(first.items, streamed.slice(0, 2));
  const second = await client.evaluationPage(first.id, 2, 2);
  assert.deepEqual([second.offset, second.count], [2, 5]);
  assert.deepEqual(second.items, streamed.slice(2, 4), 'a node, then the attribute with its typed value');
  assert.deepEqual((await client.evaluationPage(first.id, 4, 10)).items, streamed.slice(4));
  assert.deepEqual((await client.evaluationPage(first.id, 9, 10)).items, []);
});

test('cancel stops a running evaluation; a new one supersedes the previous', async () => {
  const slow = 'count(for $i in 1 to 100000000 return $i)';
  const first = client.evaluate(slow);
  const firstDone = rejection(first.done);
  await new Promise((resolve) => setTimeout(resolve, 100));
  await first.cancel();
  assert.equal((await firstDone).code, 'cancelled');

  const superseded = client.evaluate(slow);
  const supersededDone = rejection(superseded.done);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const next = await client.evaluate('count(//Window)').done;
  assert.equal((await supersededDone).code, 'cancelled');
  assert.equal(next.count, 1);
  assert.deepEqual(await client.cancel('unknown-id'), { cancelled: false });
});

test('highlight outlines nodes and rects through the platform, clear removes it', async () => {
  await materialize();
  const devices = fixture.context.runtime.platform as MockDevices;
  devices.takeHighlightLog();
  const shown = await client.highlight({
    runtimeIds: ['mock:checkbox-autosave'],
    rects: [{ x: 1, y: 2, width: 3, height: 4 }],
  });
  assert.equal(shown.shown, true);
  assert.deepEqual(shown.rects, [
    { x: 1, y: 2, width: 3, height: 4 },
    { x: 300, y: 115, width: 120, height: 30 },
  ]);
  assert.deepEqual(devices.takeHighlightLog(), ['highlight 1,2,3,4 300,115,120,30']);
  await client.clearHighlight();
  assert.deepEqual(devices.takeHighlightLog(), ['clear']);
});

test('picking follows the pointer, hit-tests by bounds and selects', async () => {
  const devices = fixture.context.runtime.platform as MockDevices;
  const hovers: Array<Extract<InspectorEvent, { type: 'pick.hover' }>> = [];
  const offHover = client.on('pick.hover', (event) => hovers.push(event));
  const selected = new Promise<Extract<InspectorEvent, { type: 'pick.selected' }>>((resolve) => {
    const off = client.on('pick.selected', (event) => {
      off();
      resolve(event);
    });
  });
  await devices.pointer.moveTo({ x: 150, y: 130 });
  const started = await client.startPick(20);
  assert.equal(started.clickSelects, false, 'the mock platform cannot capture a pointer');
  assert.match(started.clickNote ?? '', /mock platform has no real pointer/);
  const deadline = Date.now() + 5000;
  while (!hovers.some((event) => event.node?.runtimeId === 'mock:button-toolbar-ok') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const hover = hovers.find((event) => event.node?.runtimeId === 'mock:button-toolbar-ok');
  assert.ok(hover, JSON.stringify(hovers));
  assert.deepEqual(hover.bounds, { x: 110, y: 115, width: 80, height: 30 });
  assert.deepEqual(hover.point, { x: 150, y: 130 });
  assert.ok(hover.stackSize >= 3);
  const { depth } = await client.cyclePick(-1);
  assert.equal(depth, 1);
  const picked = await client.selectPick();
  assert.equal(picked.node?.runtimeId, 'mock:pane-toolbar');
  assert.equal((await selected).node.runtimeId, 'mock:pane-toolbar');
  offHover();
  assert.deepEqual(await client.stopPick(), { stopped: false });
  assert.equal((await rejection(client.selectPick())).code, 'invalid-input');
});

test('tree changes arrive as coalesced events', async () => {
  const changed = new Promise<Extract<InspectorEvent, { type: 'tree.changed' }>>((resolve) => {
    const off = client.on('tree.changed', (event) => {
      off();
      resolve(event);
    });
  });
  const node = await client.node('mock:treeitem-docs');
  await client.action('mock:treeitem-docs', node.revision, 'expand');
  const event = await changed;
  assert.ok(event.changes.some((change) => change.runtimeId === 'mock:treeitem-docs' && change.providerId === 'mock'));
});

test('a focus change arrives as focus.changed with the newly focused node', async () => {
  await materialize();
  const focused = new Promise<Extract<InspectorEvent, { type: 'focus.changed' }>>((resolve) => {
    const off = client.on('focus.changed', (event) => {
      off();
      resolve(event);
    });
  });
  const search = await client.node('mock:edit-search');
  await client.action('mock:edit-search', search.revision, 'focus');
  const event = await focused;
  assert.equal(event.node.runtimeId, 'mock:edit-search');
  assert.equal(event.node.role, 'Edit');
});

test('snapshot, settings, status and accessibility', async () => {
  await materialize();
  const snapshot = await client.snapshot({ runtimeId: 'mock:window-login', attrs: 'all' });
  assert.match(snapshot.xml, /<Window[^>]*Name="Sign in"/);
  assert.ok(!snapshot.xml.includes(DEFAULT_MOCK_SECRET));
  assert.equal(snapshot.nodes, 5);
  assert.deepEqual(await client.getSettings(), { settings: {} });
  await client.setSettings({ theme: 'dark', panels: { tree: 300 } });
  const answer = await client.setSettings({ theme: null, shortcut: 'CommandOrControl+Shift+P' });
  const settings = { panels: { tree: 300 }, shortcut: 'CommandOrControl+Shift+P' };
  assert.deepEqual(answer, { changed: ['theme', 'shortcut'], bytes: Buffer.byteLength(JSON.stringify(settings)) });
  assert.deepEqual((await client.getSettings()).settings, settings);
  // written soon after the answer, coalesced
  const file = path.join(fixture.dir, 'settings.json');
  const written = () => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : undefined);
  for (let i = 0; i < 100 && JSON.stringify(written()) !== JSON.stringify(settings); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.deepEqual(written(), settings);
  const status = await client.status();
  assert.equal(status.platform, 'mock');
  assert.deepEqual(
    status.providers.map((provider) => [provider.id, provider.state]),
    [['mock', 'ready']],
  );
  assert.equal(status.accessibility.enabled, true);
  assert.deepEqual(status.capabilities, {
    pick: true,
    highlight: true,
    followFocus: true,
    locators: true,
    stop: false,
    screen: true,
    interact: true,
    record: true,
  });
  assert.equal((await rejection(client.enableAccessibility())).code, 'unsupported');
});

test('capabilities follow the platform: without one there is nothing to pick with or highlight on', async () => {
  const bare = await openHost({ providers: ['mock'], platform: 'none' });
  try {
    const { client: other } = await bare.connect();
    const { capabilities } = await other.status();
    assert.deepEqual(capabilities, {
      pick: false,
      highlight: false,
      followFocus: true,
      locators: true,
      stop: false,
      screen: false,
      interact: false,
      record: false,
    });
  } finally {
    await bare.close();
  }
});

test('locate returns verified locators; export renders them as code', async () => {
  await materialize();
  const { locators } = await client.locate('mock:checkbox-autosave');
  assert.ok(locators.length > 0);
  assert.ok(locators.every((locator) => locator.matches === 1));
  const best = locators[0]!;
  const check = await client.evaluate(best.xpath).done;
  assert.equal(check.count, 1);
  const exported = await client.exportCode('mock:checkbox-autosave', 'xpath');
  assert.equal(exported.format, 'xpath');
  assert.ok(exported.code.includes(best.xpath), exported.code);
  const robot = await client.exportCode('mock:checkbox-autosave', 'robot', 'click');
  assert.ok(robot.code.length > 0);
  const badAction = await rejection(client.exportCode('mock:checkbox-autosave', 'python', 'explode'));
  assert.equal(badAction.code, 'usage');
  const badFormat = await rejection(
    client.request('export', { runtimeId: 'mock:checkbox-autosave', format: 'cobol' as 'json' }),
  );
  assert.equal(badFormat.code, 'invalid-input');
  assert.equal(badFormat.path, 'params.format', 'the client rebuilds where in the request the problem is');
});

test('closing a connection cancels its evaluation and the host keeps serving others', async () => {
  const { client: other, socket } = await fixture.connect();
  const running = other.evaluate('count(for $i in 1 to 100000000 return $i)');
  const failed = running.done.then(
    () => 'resolved',
    (error: Error) => error.message,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.close();
  assert.match(await failed, /connection closed/);
  const next = await client.evaluate('//Button').done;
  assert.equal(next.count, 6);
});

const expected = new Map([
  ['150,130', 'mock:button-toolbar-ok'],
  ['360,130', 'mock:checkbox-autosave'],
  ['300,172', 'mock:treeitem-src'],
  ['710,236', 'mock:listitem-2'],
  ['-1660,755', 'mock:button-preferences-ok'],
  ['4200,294', 'mock:password'],
  ['50,50', null],
]);

// CLI `pick --at` and picking in the UI use one hit test: on the mock provider, which cannot hit-test itself, both
// fall back to the Bounds of the tree.
test('CLI pick --at and the API pick name the same element at the same points', async () => {
  const points = [...expected.keys()].map((key) => {
    const [x, y] = key.split(',').map(Number);
    return { x: x!, y: y! };
  });
  const devices = fixture.context.runtime.platform as MockDevices;
  const byApi = await pickedByApi(client, (point) => devices.pointer.moveTo(point), points);
  const byCli = points.map((point) => pickedByCli(process.env, ['--provider', 'mock'], point));
  assert.deepEqual(byApi, byCli);
  assert.deepEqual(byCli, [...expected.values()]);
});

test('host.stop is refused where the host set no stop, and ends the host (once answered) where it did', async () => {
  assert.equal((await client.status()).capabilities.stop, false);
  const refused = await rejection(client.stopHost());
  assert.equal(refused.code, 'unsupported');
  let stops = 0;
  fixture.context.hostStop = () => stops++;
  try {
    assert.equal((await client.status()).capabilities.stop, true);
    assert.deepEqual(await client.stopHost(), { stopping: true });
    assert.equal(stops, 1);
  } finally {
    fixture.context.hostStop = undefined;
  }
});
