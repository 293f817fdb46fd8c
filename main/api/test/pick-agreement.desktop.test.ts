import '../../backends/linux.js';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { InspectorClient } from '../../../shared/api/client.js';
import type { NodeSummary } from '../../../shared/api/schema.js';
import type { Point } from '../../../shared/model/values.js';
import type { LaunchedApp } from '../../../e2e/support/apps.js';
import { launchGtk3Demo, sessionEnv } from '../../../e2e/support/apps.js';
import { pickedByApi, pickedByCli } from './pick-agreement.js';
import { openHost, type HostFixture } from './support.js';

// CLI `pick --at` (its own process) and picking in the UI (pick.start through the dispatcher, the real pointer moved
// by the X11 platform) on gtk3-demo: the same element at every point of a grid over its main window.

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

async function mainWindow(): Promise<NodeSummary> {
  const found: NodeSummary[] = [];
  await client.evaluate(`/app:Application[@ProcessId=${gtk.pid}]/*[self::Window or self::Frame]`, {
    onItems: (batch) => batch.forEach((item) => item.type === 'node' && found.push(item.node)),
  }).done;
  assert.ok(found[0], 'gtk3-demo has a main window');
  return found[0];
}

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
  const pointer = fixture.session.runtime.platform?.pointer;
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
