import '../../backends/linux.js';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { InspectorClient } from '../../../shared/api/client.js';
import { InspectorError } from '../../../shared/model/errors.js';
import type { InspectorEvent, NodeSummary } from '../../../shared/api/schema.js';
import type { Point } from '../../../shared/model/values.js';
import type { LaunchedApp } from '../../../e2e/support/apps.js';
import { launchGtk3Demo, sessionEnv } from '../../../e2e/support/apps.js';
import { pickedByApi, pickedByCli } from './pick-agreement.js';
import { openHost, type HostFixture } from './support.js';

// The API contract over the WebSocket transport against the real runtime: AT-SPI and the X11 platform in the test
// desktop context, with gtk3-demo running.

const env = sessionEnv();
let gtk: LaunchedApp;
let fixture: HostFixture;
let client: InspectorClient;

before(async () => {
  gtk = await launchGtk3Demo(env);
  fixture = await openHost({ providers: ['atspi'], env });
  ({ client } = await fixture.connect());
});
after(async () => {
  await fixture?.close();
  await gtk?.stop();
});

async function gtkApp(): Promise<NodeSummary> {
  const top = await client.children('platynui:Desktop', { refresh: true });
  const xpath = await client.evaluate(`/app:Application[@ProcessId=${gtk.pid}]`).done;
  assert.equal(xpath.count, 1);
  for (const node of top.nodes) {
    if (node.namespace !== 'app') continue;
    const { attributes } = await client.attributes(node.runtimeId);
    const pid = attributes.find((entry) => entry.name === 'ProcessId')?.value;
    if (pid?.type === 'Integer' && pid.value === gtk.pid) return node;
  }
  assert.fail('gtk3-demo is not among the desktop children');
}

async function mainWindow(): Promise<NodeSummary> {
  const app = await gtkApp();
  const windows = await client.children(app.runtimeId);
  const window = windows.nodes.find((node) => node.role === 'Window' || node.role === 'Frame');
  assert.ok(window, JSON.stringify(windows.nodes));
  return window;
}

test('desktop, children and attributes of a real application', async () => {
  const desktop = await client.desktop();
  assert.equal(desktop.node.runtimeId, 'platynui:Desktop');
  assert.ok(desktop.monitors.length >= 1);
  const app = await gtkApp();
  assert.equal(app.name, 'gtk3-demo');
  const window = await mainWindow();
  const { attributes } = await client.attributes(window.runtimeId);
  const bounds = attributes.find((entry) => entry.name === 'Bounds');
  assert.equal(bounds?.value.type, 'Rect');
  assert.ok(attributes.some((entry) => entry.name === 'Bounds.Width' && entry.derived));
  const kids = await client.children(window.runtimeId);
  assert.ok(kids.total > 0);
  const ancestors = await client.ancestors(kids.nodes[0]!.runtimeId);
  assert.deepEqual(
    ancestors.nodes.map((node) => node.runtimeId),
    ['platynui:Desktop', app.runtimeId, window.runtimeId],
  );
  const { patterns } = await client.patterns(window.runtimeId);
  assert.ok(patterns.some((pattern) => pattern.name === 'Element'));
});

test('XPath streams real nodes; a stale revision is refused', async () => {
  const items: string[] = [];
  const summary = await client.evaluate(`/app:Application[@ProcessId=${gtk.pid}]//*[@Name]`, {
    onItems: (batch) => items.push(...batch.map((item) => (item.type === 'node' ? item.node.runtimeId : item.type))),
  }).done;
  assert.ok(summary.count > 5, JSON.stringify(summary));
  assert.equal(items.length, summary.count);
  const window = await mainWindow();
  try {
    await client.action(window.runtimeId, window.revision - 1, 'focus');
    assert.fail('an action with an old revision ran');
  } catch (error) {
    assert.ok(error instanceof InspectorError);
    assert.equal(error.code, 'stale-node');
  }
});

test('highlight goes through the X11 platform; accessibility is reported on', async () => {
  const window = await mainWindow();
  const shown = await client.highlight({ runtimeIds: [window.runtimeId], durationMs: 2000 });
  assert.equal(shown.shown, true);
  assert.equal(shown.rects.length, 1);
  assert.deepEqual(await client.clearHighlight(), { cleared: true });
  const status = await client.status();
  assert.equal(status.platform, 'x11');
  assert.deepEqual(
    status.providers.map((provider) => provider.id),
    ['atspi'],
  );
  assert.equal(status.accessibility.enabled, true);
  assert.equal(status.accessibility.canEnable, true);
  assert.equal((await client.accessibilityStatus()).enabled, true);
});

test('picking reports the element under the real pointer', async () => {
  const window = await mainWindow();
  const { attributes } = await client.attributes(window.runtimeId);
  const bounds = attributes.find((entry) => entry.name === 'Bounds')?.value;
  assert.ok(bounds?.type === 'Rect');
  const pointer = fixture.context.runtime.platform?.pointer;
  assert.ok(pointer);
  const point = {
    x: Math.round(bounds.value.x + bounds.value.width / 2),
    y: Math.round(bounds.value.y + bounds.value.height / 2),
  };
  await pointer.moveTo(point);
  const hovered = new Promise<Extract<InspectorEvent, { type: 'pick.hover' }>>((resolve) => {
    const off = client.on('pick.hover', (event) => {
      if (!event.node) return;
      off();
      resolve(event);
    });
  });
  assert.deepEqual(await client.startPick(50), { started: true, clickSelects: true }, 'X11 captures the pointer');
  const event = await hovered;
  assert.deepEqual(event.point, point);
  const path = await client.ancestors(event.node!.runtimeId);
  assert.ok(
    [event.node!.runtimeId, ...path.nodes.map((node) => node.runtimeId)].includes(window.runtimeId),
    'the picked element is inside the window under the pointer',
  );
  const selected = await client.selectPick();
  assert.equal(selected.node?.runtimeId, event.node!.runtimeId);
});

test('the keyboard focus moving in the real application arrives as focus.changed', async () => {
  const targets: NodeSummary[] = [];
  await client.evaluate(`/app:Application[@ProcessId=${gtk.pid}]//Button[@Name='Run']`, {
    onItems: (batch) => batch.forEach((item) => item.type === 'node' && targets.push(item.node)),
  }).done;
  const [run] = targets;
  assert.ok(run, 'gtk3-demo has a Run button');
  // Only the active window's widgets get the focus: the window manager may have kept it elsewhere (openbox does not
  // give a new window the focus when the user, or a test, clicked another one since it started).
  const window = await mainWindow();
  await client.action(window.runtimeId, window.revision, 'activate');
  const focused = new Promise<Extract<InspectorEvent, { type: 'focus.changed' }>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no focus.changed within 10 s')), 10_000);
    const off = client.on('focus.changed', (event) => {
      if (event.node.runtimeId !== run.runtimeId) return;
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
  await client.action(run.runtimeId, (await client.node(run.runtimeId)).revision, 'focus');
  const event = await focused;
  assert.equal(event.node.name, 'Run');
});

// CLI `pick --at` (its own process) and picking in the UI (the real pointer moved by the X11 platform): the same element
// at every point of a grid over the main window.
test('CLI pick --at and the API pick name the same gtk3-demo element at each point', async () => {
  const window = await mainWindow();
  const { attributes } = await client.attributes(window.runtimeId);
  const bounds = attributes.find((entry) => entry.name === 'Bounds')?.value;
  assert.ok(bounds?.type === 'Rect');
  const points: Point[] = [];
  for (const fx of [0.15, 0.5, 0.85]) {
    for (const fy of [0.2, 0.5, 0.8]) {
      points.push({
        x: Math.round(bounds.value.x + bounds.value.width * fx),
        y: Math.round(bounds.value.y + bounds.value.height * fy),
      });
    }
  }
  const pointer = fixture.context.runtime.platform?.pointer;
  assert.ok(pointer);
  const byApi = await pickedByApi(client, (point) => pointer.moveTo(point), points);
  // Away from the window, so that no hover effect or tooltip changes what the CLI finds there.
  await pointer.moveTo({ x: 0, y: 0 });
  const byCli = points.map((point) => pickedByCli(env, ['--provider', 'atspi'], point));
  assert.deepEqual(byApi, byCli);
  const named = byCli.filter((runtimeId): runtimeId is string => runtimeId !== null);
  assert.equal(named.length, points.length, `an element at every point of the window: ${JSON.stringify(byCli)}`);
  assert.ok(new Set(named).size >= 3, `different elements at different points: ${JSON.stringify(byCli)}`);
  for (const runtimeId of new Set(named)) {
    const path = await client.ancestors(runtimeId);
    assert.ok(
      [runtimeId, ...path.nodes.map((node) => node.runtimeId)].includes(window.runtimeId),
      `${runtimeId} is inside gtk3-demo's main window`,
    );
  }
});
