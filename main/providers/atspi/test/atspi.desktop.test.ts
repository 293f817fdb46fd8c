import '../../../backends/linux.js';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AttributeNames as A } from '../../../../shared/model/attributes.js';
import { isInspectorError } from '../../../../shared/model/errors.js';
import { checkPatternContract } from '../../../../shared/model/patterns.js';
import { toJsonValue } from '../../../../shared/model/values.js';
import type { LaunchedApp } from '../../../../e2e/support/apps.js';
import {
  CONTROLS_READY_TITLE,
  FIXTURE_PASSWORD,
  fixtureUrl,
  launchChromium,
  launchGtk3Demo,
} from '../../../../e2e/support/apps.js';
import type { ProviderEvent } from '../../../core/provider.js';
import { Runtime } from '../../../runtime/runtime.js';
import type { AtspiNode } from '../node.js';
import { AtspiProvider } from '../provider.js';
import { hasInterface } from '../node-data.js';
import { ATSPI_ROLE } from '../roles.js';
import { applicationOf, assertMatchesLibatspi, flatten, walk, waitFor } from './support.js';

// Real applications in the test desktop session: gtk3-demo and Chromium showing e2e/fixtures/controls.html.

let gtk: LaunchedApp;
let chromium: LaunchedApp;
let provider: AtspiProvider;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

before(async () => {
  process.on('unhandledRejection', onUnhandled);
  [gtk, chromium] = await Promise.all([
    launchGtk3Demo(process.env),
    launchChromium(process.env, fixtureUrl('controls.html'), { title: CONTROLS_READY_TITLE }),
  ]);
  provider = await AtspiProvider.create();
});

after(async () => {
  await provider?.shutdown();
  await Promise.all([gtk?.stop(), chromium?.stop()]);
  process.off('unhandledRejection', onUnhandled);
});

async function attributeMap(node: AtspiNode): Promise<Map<string, unknown>> {
  const entries = await node.readAllAttributes();
  const map = new Map<string, unknown>();
  for (const entry of entries) {
    const key = entry.namespace === 'control' ? entry.name : `${entry.namespace}:${entry.name}`;
    map.set(key, toJsonValue(entry.value));
  }
  return map;
}

async function find(app: AtspiNode, predicate: (node: AtspiNode) => boolean): Promise<AtspiNode> {
  const all = flatten(await walk(app));
  const hit = all.find((w) => predicate(w.node));
  assert.ok(hit, 'node not found');
  return hit.node;
}

test('roots are the registered applications with process metadata, never this process', async () => {
  const roots = (await provider.roots()) as AtspiNode[];
  assert.ok(roots.every((root) => root.data.app.processId !== process.pid));
  const app = await applicationOf(provider, gtk.pid);
  assert.equal(app.namespace, 'app');
  assert.equal(app.role, 'Application');
  assert.equal(app.name, 'gtk3-demo');
  assert.equal(app.runtimeId, `atspi://${gtk.busName}/org/a11y/atspi/accessible/root`);
  const attributes = await attributeMap(app);
  assert.equal(attributes.get(A.ProcessId), gtk.pid);
  assert.equal(attributes.get(A.ProcessName), 'gtk3-demo');
  assert.match(String(attributes.get(A.ExecutablePath)), /gtk3-demo$/);
  assert.match(String(attributes.get(A.CommandLine)), /gtk3-demo/);
  assert.equal(attributes.get(A.UserName), 'root');
  assert.ok(Date.parse(String(attributes.get(A.StartTime))) > Date.now() - 3600_000);
  assert.match(String(attributes.get(A.Architecture)), /^(x86_64|aarch64|x86|arm|riscv64)$/);
  assert.equal(attributes.get('native:Role'), 'application');
  assert.deepEqual(await app.supportedPatterns(), ['Application']);
});

for (const which of ['gtk3-demo', 'chromium'] as const) {
  test(`${which}: structure, roles and names match libatspi's view`, async () => {
    const launched = which === 'gtk3-demo' ? gtk : chromium;
    const app = await applicationOf(provider, launched.pid);
    await assertMatchesLibatspi(app, launched.pid, launched.busName);
  });
}

test('lazy walking gives the same tree as bulk loading', async () => {
  const lazy = await AtspiProvider.create({ bulk: false });
  try {
    const bulkTree = flatten(await walk(await applicationOf(provider, chromium.pid)));
    const lazyTree = flatten(await walk(await applicationOf(lazy, chromium.pid)));
    assert.deepEqual(
      lazyTree.map((w) => `${w.depth} ${w.node.runtimeId} ${w.node.role} ${w.node.name}`),
      bulkTree.map((w) => `${w.depth} ${w.node.runtimeId} ${w.node.role} ${w.node.name}`),
    );
  } finally {
    await lazy.shutdown();
  }
});

test('calls go to each application on its own socket, not through the bus daemon, and read the same tree', async () => {
  const { call, connectBus } = await import('../../../../e2e/support/atspi-bus.js');
  // A monitor on the accessibility bus sees every call the daemon routes.
  const monitor = connectBus(provider.client.address);
  let routed = 0;
  const apps = new Set([chromium.busName, gtk.busName]);
  const { MessageType } = await import('dbus-next');
  monitor.on('message', (message: { type: number; destination?: string }) => {
    if (message.type === MessageType.METHOD_CALL && apps.has(message.destination ?? '')) routed++;
  });
  monitor.addMethodHandler(() => true); // a monitor must not answer
  const describe = async (app: AtspiNode) =>
    Promise.all(
      flatten(await walk(app)).map(async (w) => {
        // Names left out: a tab's name shows the page's memory use, which changes between the two reads.
        const attributes = [...(await attributeMap(w.node))].filter(([key]) => !key.endsWith('Name'));
        return `${w.depth} ${w.node.runtimeId} ${w.node.role} ${JSON.stringify(attributes)}`;
      }),
    );
  const readBoth = async (options: { peerToPeer: boolean }) => {
    const reader = await AtspiProvider.create(options);
    try {
      const before = routed;
      const tree = await describe(await applicationOf(reader, chromium.pid));
      await walk(await applicationOf(reader, gtk.pid));
      await new Promise((resolve) => setTimeout(resolve, 500)); // the monitor's copies may come after the replies
      const peers = [chromium, gtk].filter((launched) => reader.client.hasPeer(launched.busName)).length;
      return { tree, routed: routed - before, peers, direct: reader.client.peerCallCount };
    } finally {
      await reader.shutdown();
    }
  };
  try {
    await new Promise((resolve) => monitor.once('connect', resolve));
    await call(monitor, {
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus.Monitoring',
      member: 'BecomeMonitor',
      signature: 'asu',
      body: [[], 0],
    });
    const viaBus = await readBoth({ peerToPeer: false });
    const direct = await readBoth({ peerToPeer: true });
    assert.equal(viaBus.peers, 0);
    assert.equal(viaBus.direct, 0);
    assert.ok(viaBus.routed > viaBus.tree.length, `the monitor saw ${viaBus.routed} calls through the bus`);
    assert.equal(direct.peers, 2);
    assert.ok(direct.direct > direct.tree.length, `${direct.direct} calls went direct`);
    // Through the bus only the question for each application's socket.
    assert.ok(direct.routed <= 4, `${direct.routed} calls went through the bus`);
    assert.deepEqual(direct.tree, viaBus.tree);
  } finally {
    monitor.disconnect();
  }
});

test('attribute values of Chromium controls', async () => {
  const app = await applicationOf(provider, chromium.pid);
  const ok = await find(app, (n) => n.role === 'Button' && n.name === 'OK');
  assert.equal(ok.namespace, 'control');
  const okAttrs = await attributeMap(ok);
  assert.equal(okAttrs.get('native:Role'), 'push button');
  assert.equal(okAttrs.get(A.Technology), 'AT-SPI2');
  assert.equal(okAttrs.get(A.IsEnabled), true);
  assert.equal(okAttrs.get(A.IsVisible), true);
  const bounds = okAttrs.get(A.Bounds) as { x: number; y: number; width: number; height: number };
  assert.ok(bounds.width > 0 && bounds.height > 0, JSON.stringify(bounds));
  assert.ok(bounds.x >= 0 && bounds.y >= 0 && bounds.x + bounds.width <= 1920 && bounds.y + bounds.height <= 1080);
  const point = okAttrs.get(A.ActivationPoint) as { x: number; y: number };
  assert.ok(
    point.x >= bounds.x &&
      point.x < bounds.x + bounds.width &&
      point.y >= bounds.y &&
      point.y < bounds.y + bounds.height,
  );
  // Chromium gives buttons the Text interface: Text comes from it, never from the name.
  assert.equal(okAttrs.get(A.Text), 'OK');
  assert.ok(!okAttrs.has('Bounds.X'), 'providers never produce aliases');
  const okPatterns = await ok.supportedPatterns();
  for (const p of ['Element', 'Activatable', 'ActivationTarget', 'Focusable']) assert.ok(okPatterns.includes(p), p);

  const user = await find(app, (n) => n.role === 'Entry' && n.name === 'User name');
  const userAttrs = await attributeMap(user);
  assert.equal(userAttrs.get(A.Text), 'alice');
  assert.equal(userAttrs.get(A.IsReadOnly), false);
  assert.equal(userAttrs.get(A.IsSecure), false);
  const userPatterns = await user.supportedPatterns();
  assert.ok(userPatterns.includes('TextSelection') && userPatterns.includes('Focusable'));
  // Chromium exposes no EditableText interface: no way to write, so TextEditable is not claimed.
  assert.equal(userPatterns.includes('TextEditable'), user.data.interfaces.includes('org.a11y.atspi.EditableText'));

  const volume = await find(app, (n) => n.role === 'Slider' && n.name === 'Volume');
  const volumeAttrs = await attributeMap(volume);
  assert.equal(volumeAttrs.get(A.Value), 3);
  assert.equal(volumeAttrs.get(A.MinValue), 0);
  assert.equal(volumeAttrs.get(A.MaxValue), 10);
  assert.ok((await volume.supportedPatterns()).includes('StatefulValue'));

  const agree = await find(app, (n) => n.role === 'CheckBox' && n.name === 'I agree');
  assert.equal((await attributeMap(agree)).get(A.ToggleState), 'On');
  const newsletter = await find(app, (n) => n.role === 'CheckBox' && n.name === 'Newsletter');
  assert.equal((await attributeMap(newsletter)).get(A.ToggleState), 'Off');
  assert.ok((await agree.supportedPatterns()).includes('Toggleable'));

  const item = await find(app, (n) => n.role === 'ListItem');
  assert.equal(item.namespace, 'item');
  // Chromium's list item text starts with its marker.
  assert.match(String((await attributeMap(item)).get(A.Text)), /^\W*Apple$/);
});

test('GTK nodes: roles in PlatynUI names, Component-gated attributes, tab items in the item namespace', async () => {
  const app = await applicationOf(provider, gtk.pid);
  const all = flatten(await walk(app)).map((w) => w.node);
  const frame = all.find((n) => n.role === 'Frame');
  assert.ok(frame);
  const tabs = all.filter((n) => n.role === 'TabItem');
  assert.ok(tabs.length > 0);
  assert.ok(tabs.every((n) => n.namespace === 'item'));
  assert.ok(all.some((n) => n.role === 'Tab' && n.namespace === 'control'));
  assert.ok(all.some((n) => n.role === 'Button'));
  for (const node of all) {
    const attrs = await attributeMap(node);
    const component = (attrs.get('native:Accessible.Interfaces') as string[]).includes('Component');
    assert.equal(attrs.has(A.Bounds), component, `${node.runtimeId} Bounds only with Component`);
    assert.equal(attrs.has(A.IsEnabled), component);
    if (node.id === undefined) assert.ok(!attrs.has(A.Id), 'Id only when set');
    const text = (attrs.get('native:Accessible.Interfaces') as string[]).includes('Text');
    assert.equal(attrs.has(A.Text), text && !node.isSecure, `${node.runtimeId} Text only from the Text interface`);
  }
});

test('every node honours the pattern contract, and the applications survive reading every attribute', async () => {
  for (const launched of [gtk, chromium]) {
    const app = await applicationOf(provider, launched.pid);
    const all = flatten(await walk(app)).map((w) => w.node);
    for (const node of all) {
      const attrs = await attributeMap(node);
      const control = new Map([...attrs].filter(([key]) => !key.includes(':')));
      const violations = checkPatternContract(await node.supportedPatterns(), control);
      assert.deepEqual(violations, [], node.runtimeId);
    }
    assert.ok(launched.alive(), 'application still running');
    const again = await applicationOf(provider, launched.pid);
    assert.ok((await again.children()).length > 0);
    assert.equal(await again.isValid(), true);
  }
  assert.deepEqual(unhandled, []);
});

test('reading every attribute: text state in one call, no text calls for empty text, the same values as one by one', async () => {
  const reader = await AtspiProvider.create();
  try {
    const nodes = flatten(await walk(await applicationOf(reader, chromium.pid))).map((w) => w.node);
    const before = reader.client.callCount;
    const all = await Promise.all(nodes.map((node) => attributeMap(node)));
    const perNode = (reader.client.callCount - before) / nodes.length;
    // 10.1 on this page when CharacterCount, CaretOffset (twice), GetNSelections and GetText were read for each.
    assert.ok(perNode < 8, `${perNode} calls per node over ${nodes.length} nodes`);
    const withText = all.filter((attributes) => attributes.has('native:Text.CharacterCount'));
    assert.ok(withText.some((attributes) => attributes.get('native:Text.CharacterCount') === 0));
    assert.ok(withText.some((attributes) => Number(attributes.get('native:Text.CharacterCount')) > 0));
    for (const attributes of withText) {
      if (attributes.get('native:Text.CharacterCount') === 0) {
        assert.equal(attributes.get(A.Text), '');
        assert.equal(attributes.get(A.SelectedText), '');
        assert.equal(attributes.get(A.SelectionStart), attributes.get('native:Text.CaretOffset'));
      }
    }
    // One by one, on nodes that read nothing before, each attribute alone gives the same value.
    const single = await AtspiProvider.create();
    try {
      const fresh = flatten(await walk(await applicationOf(single, chromium.pid))).map((w) => w.node);
      const names = [A.Text, A.SelectedText, A.SelectionStart, A.SelectionEnd, 'native:Text.CharacterCount'];
      for (const [i, node] of fresh.entries()) {
        const expected = all[i] as Map<string, unknown>;
        if (!expected.has('native:Text.CharacterCount')) continue;
        for (const name of names) {
          const [namespace, local] = name.includes(':') ? name.split(':') : ['control', name];
          const attribute = (await node.attributes()).find((a) => a.namespace === namespace && a.name === local);
          assert.ok(attribute, `${node.runtimeId} ${name}`);
          assert.deepEqual(toJsonValue(await attribute.read()), expected.get(name), `${node.runtimeId} ${name}`);
        }
      }
    } finally {
      await single.shutdown();
    }
  } finally {
    await reader.shutdown();
  }
});

test('a bulk load for reading every attribute brings the text state along: no text state call, the same values, none kept for the password', async () => {
  const bulk = await AtspiProvider.create();
  const plain = await AtspiProvider.create();
  try {
    const app = await applicationOf(bulk, chromium.pid);
    app.expectAllAttributes();
    const nodes = flatten(await walk(app)).map((w) => w.node);
    const textNodes = nodes.filter((node) => hasInterface(node.data, 'Text') && !node.isSecure);
    assert.ok(textNodes.length > 10, `${textNodes.length} text nodes`);
    assert.ok(
      textNodes.every((node) => node.data.loadedTextState !== undefined),
      'every text node holds the text state the load brought',
    );
    const password = nodes.find((node) => node.data.role === ATSPI_ROLE.PasswordText);
    assert.ok(password, 'the password field is found');
    assert.equal(password.data.loadedTextState, undefined, 'no length of the password is kept');
    let textStateCalls = 0;
    const getTextState = bulk.calls.getTextState.bind(bulk.calls);
    bulk.calls.getTextState = (ref) => (textStateCalls++, getTextState(ref));
    const fromBulk = await Promise.all(nodes.map((node) => attributeMap(node)));
    assert.equal(textStateCalls, 0, 'no text state was asked for');
    const asked = flatten(await walk(await applicationOf(plain, chromium.pid))).map((w) => w.node);
    assert.equal(asked.length, nodes.length);
    for (const [i, node] of asked.entries()) {
      const attributes = await attributeMap(node);
      for (const name of ['native:Text.CharacterCount', 'native:Text.CaretOffset', A.Text, A.SelectedText]) {
        assert.deepEqual(fromBulk[i]!.get(name), attributes.get(name), `${node.runtimeId} ${name}`);
      }
    }
  } finally {
    await Promise.all([bulk.shutdown(), plain.shutdown()]);
  }
});

test('a password field is secure: its text and value are never read or shown, not even the mask', async () => {
  const app = await applicationOf(provider, chromium.pid);
  const all = flatten(await walk(app)).map((w) => w.node);
  const password = all.find((n) => n.isSecure);
  assert.ok(password, 'the password field is found');
  assert.equal(password.role, 'PasswordText');
  const attrs = await attributeMap(password);
  assert.equal(attrs.get(A.IsSecure), true);
  for (const secret of [A.Text, A.Value, A.SelectedText, 'native:Text.CharacterCount']) {
    assert.ok(!attrs.has(secret), `${secret} absent`);
  }
  const patterns = await password.supportedPatterns();
  assert.ok(!patterns.includes('TextEditable') && !patterns.includes('TextSelection'));
  // Everything the provider can produce for every node of the page, plus its status, in one text.
  const dump: unknown[] = [];
  for (const node of all) {
    dump.push(node.runtimeId, node.name, node.role, node.id, [...(await attributeMap(node))]);
  }
  dump.push(provider.status());
  const text = JSON.stringify(dump);
  assert.ok(!text.includes(FIXTURE_PASSWORD), 'the password never appears');
  assert.ok(!/[\u2022\u25cf*]{4,}/.test(text), 'no mask characters appear');
  // Errors never carry it either: an action on the field that fails says so without its contents.
  try {
    await password.performAction({ action: 'toggle' });
    assert.fail('toggle on a password field must fail');
  } catch (error) {
    assert.ok(isInspectorError(error));
    assert.ok(!String(error.message).includes(FIXTURE_PASSWORD));
  }
});

test('page changes arrive as events with targeted invalidation', async () => {
  const app = await applicationOf(provider, chromium.pid);
  const list = await find(app, (n) => n.role === 'List' && n.name === 'Dynamic items');
  const before = await list.children();
  const events: ProviderEvent[] = [];
  const unsubscribe = provider.subscribe((event) => events.push(event));
  try {
    const add = await find(app, (n) => n.role === 'Button' && n.name === 'Add item');
    await add.performAction({ action: 'activate' });
    const added = await waitFor('NodeAdded under the list', () =>
      events.find((e) => e.kind === 'NodeAdded' && e.parentRuntimeId === list.runtimeId),
    );
    assert.ok(added);
    // No manual invalidation: the provider dropped the list's children itself.
    const after = await list.children();
    assert.equal(after.length, before.length + 1);
    const item = after[after.length - 1] as AtspiNode;
    assert.match(String((await attributeMap(item)).get(A.Text)), /^\W*Dynamic item 2$/);
    const status = await find(app, (n) => n.role === 'Status' || n.name === 'Items: 2');
    assert.ok(status);

    const remove = await find(app, (n) => n.role === 'Button' && n.name === 'Remove item');
    await remove.performAction({ action: 'activate' });
    await waitFor('NodeRemoved under the list', () =>
      events.find((e) => e.kind === 'NodeRemoved' && e.parentRuntimeId === list.runtimeId),
    );
    assert.equal((await list.children()).length, before.length);

    const toggle = await find(app, (n) => n.role === 'Button' && n.name === 'Toggle details');
    await toggle.performAction({ action: 'activate' });
    await waitFor('a state or property update', () =>
      events.find((e) => e.kind === 'NodeUpdated' && e.runtimeId === toggle.runtimeId),
    );
  } finally {
    unsubscribe();
  }
});

test('picking: nodesAtPoint descends to the deepest element, deepest first', async () => {
  const app = await applicationOf(provider, chromium.pid);
  const ok = await find(app, (n) => n.role === 'Button' && n.name === 'OK');
  const bounds = (await attributeMap(ok)).get(A.Bounds) as { x: number; y: number; width: number; height: number };
  const hits = await provider.nodesAtPoint(
    { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 },
    chromium.pid,
  );
  assert.ok(hits.length > 1);
  const okIndex = hits.findIndex((hit) => hit.runtimeId === ok.runtimeId);
  assert.ok(okIndex >= 0, hits.map((h) => `${h.role} ${h.name}`).join(' < '));
  // Anything deeper than the button is inside it (its text).
  for (const inner of hits.slice(0, okIndex)) assert.equal(inner.name, 'OK', `${inner.role} ${inner.name}`);
  assert.equal(hits[hits.length - 1]?.role, 'Frame');
});

test('a hung application (SIGSTOP) is listed not responding and childless without stalling the others', async () => {
  const hung = await launchGtk3Demo(process.env);
  const fresh = await AtspiProvider.create();
  try {
    hung.pause();
    const roots = (await fresh.roots()) as AtspiNode[];
    const hungNode = roots.find((r) => r.data.app.processId === hung.pid);
    assert.ok(hungNode, 'the hung application is still listed');
    assert.deepEqual(await hungNode.children(), []);
    assert.equal((await attributeMap(hungNode)).get(A.IsResponding), false);
    assert.equal((await attributeMap(hungNode)).get(A.ProcessId), hung.pid);
    // The others answer at once.
    const other = roots.find((r) => r.data.app.processId === chromium.pid);
    assert.ok(other);
    assert.ok((await other.children()).length > 0);
    assert.equal(fresh.status().state, 'degraded');
    assert.match(fresh.status().message ?? '', /not responding/);
    hung.resume();
    // After the back-off it answers again.
    await waitFor(
      'the application to answer again',
      async () => {
        try {
          return (await hungNode.children()).length > 0 ? true : undefined;
        } catch {
          return undefined;
        }
      },
      15000,
    );
  } finally {
    hung.resume();
    await fresh.shutdown();
    await hung.stop();
  }
  assert.deepEqual(unhandled, []);
});

test('an application that exits mid-walk turns its nodes invalid, without crash or unhandled rejection', async () => {
  const doomed = await launchGtk3Demo(process.env);
  const lazy = await AtspiProvider.create({ bulk: false });
  try {
    const app = await applicationOf(lazy, doomed.pid);
    const windows = (await app.children()) as AtspiNode[];
    assert.ok(windows.length > 0);
    const walking = walk(app).then(
      () => 'completed',
      (error: unknown) => (isInspectorError(error) ? error.code : 'other'),
    );
    await doomed.stop();
    const outcome = await walking;
    assert.ok(['completed', 'stale-node', 'not-responding'].includes(outcome), outcome);
    await waitFor('the nodes to turn invalid', async () =>
      (await windows[0]?.isValid()) === false ? true : undefined,
    );
    const roots = (await lazy.roots()) as AtspiNode[];
    assert.ok(!roots.some((r) => r.data.app.processId === doomed.pid));
    await assert.rejects(windows[0]?.children() ?? Promise.reject(new Error('no window')), (error: unknown) =>
      isInspectorError(error),
    );
  } finally {
    await lazy.shutdown();
    await doomed.stop();
  }
  assert.deepEqual(unhandled, []);
});

test('end to end through the runtime: --provider atspi, desktop views, derived aliases, secrets withheld', async () => {
  const runtime = await Runtime.create({ providers: ['atspi'], platform: 'none' });
  try {
    const top = await runtime.desktop.children();
    const app = top.find((node) => node.namespace === 'app' && node.name === 'Chromium');
    assert.ok(app, top.map((n) => `${n.namespace}:${n.role} ${n.name}`).join(', '));
    // The flat view lists the same top-level windows directly under the desktop.
    const windows = await app.children();
    assert.ok(windows.length > 0);
    assert.ok(windows.every((w) => top.some((t) => t.runtimeId === w.runtimeId)));
    const stack = [...windows];
    let ok: (typeof stack)[number] | undefined;
    let password: (typeof stack)[number] | undefined;
    while (stack.length > 0) {
      const node = stack.pop() as (typeof stack)[number];
      if (node.role === 'Button' && node.name === 'OK') ok = node;
      if (node.isSecure) password = node;
      stack.push(...(await node.children()));
    }
    assert.ok(ok && password);
    const entries = await ok.attributes();
    const keys = entries.map((e) => (e.namespace === 'control' ? e.name : `${e.namespace}:${e.name}`));
    for (const key of ['Bounds', 'Bounds.X', 'ActivationPoint.Y', 'SupportedPatterns', 'RuntimeId', 'native:Role']) {
      assert.ok(keys.includes(key), key);
    }
    const secret = JSON.stringify((await password.attributes()).map((e) => [e.name, toJsonValue(e.value)]));
    assert.ok(!secret.includes(FIXTURE_PASSWORD));
    assert.ok(secret.includes('"IsSecure",true'));
  } finally {
    await runtime.shutdown();
  }
});

test('with the X11 window manager, frames get the window patterns and act through it', async () => {
  const runtime = await Runtime.create({ providers: ['atspi'] });
  try {
    assert.ok(runtime.platform?.windowManager, 'the x11 platform offers a window manager');
    const top = await runtime.desktop.children();
    const app = top.find((node) => node.namespace === 'app' && node.name === 'gtk3-demo');
    assert.ok(app);
    const frame = (await app.children()).find((node) => node.role === 'Frame');
    assert.ok(frame);
    const patterns = await frame.supportedPatterns();
    for (const p of ['Activatable', 'Minimizable', 'Maximizable', 'Restorable', 'Closeable', 'Movable', 'Resizable']) {
      assert.ok(patterns.includes(p), p);
    }
    const entries = await frame.attributes();
    const control = new Map(
      entries.filter((e) => e.namespace === 'control').map((e) => [e.name, toJsonValue(e.value)]),
    );
    assert.deepEqual(checkPatternContract(patterns, control), []);
    const before = control.get(A.Bounds) as { x: number; y: number };
    await frame.performAction({ action: 'move', x: before.x + 40, y: before.y + 30 });
    await waitFor('the frame to move', async () => {
      frame.invalidate();
      const moved = toJsonValue((await frame.attribute('control', A.Bounds))?.value ?? { type: 'Null' }) as {
        x: number;
      } | null;
      return moved && moved.x !== before.x ? true : undefined;
    });
    await frame.performAction({ action: 'activate' });
  } finally {
    await runtime.shutdown();
  }
});

test('picking without a process id follows the window manager to the topmost application', async () => {
  const runtime = await Runtime.create({ providers: ['atspi'] });
  try {
    const atspi = runtime.providers.find((p) => p.descriptor.id === 'atspi') as AtspiProvider;
    const app = await applicationOf(atspi, chromium.pid);
    const ok = await find(app, (n) => n.role === 'Button' && n.name === 'OK');
    const frame = (await app.children())[0];
    assert.ok(frame);
    await frame.performAction({ action: 'activate' });
    const bounds = (await attributeMap(ok)).get(A.Bounds) as { x: number; y: number; width: number; height: number };
    const point = { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 };
    const hits = await waitFor('the Chromium window on top', async () => {
      const found = await atspi.nodesAtPoint(point, undefined);
      return found.some((hit) => hit.runtimeId === ok.runtimeId) ? found : undefined;
    });
    assert.ok(hits.length > 2);
    assert.equal(hits[hits.length - 1]?.runtimeId, frame.runtimeId);
  } finally {
    await runtime.shutdown();
  }
});
