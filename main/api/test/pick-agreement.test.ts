import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { InspectorClient } from '../../../shared/api/client.js';
import type { MockDevices } from '../../platform/mock/mock-platform.js';
import { pickedByApi, pickedByCli } from './pick-agreement.js';
import { openHost, type HostFixture } from './support.js';

// CLI `pick --at` and picking in the UI (pick.start through the dispatcher) use one hit test: on the mock provider,
// which cannot hit-test itself, both fall back to the Bounds of the tree and name the same elements.

let fixture: HostFixture;
let client: InspectorClient;

before(async () => {
  fixture = await openHost({ providers: ['mock'], platform: 'mock' });
  ({ client } = await fixture.connect());
});
after(async () => {
  await fixture.close();
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

test('CLI pick --at and the API pick name the same element at the same points', async () => {
  const points = [...expected.keys()].map((key) => {
    const [x, y] = key.split(',').map(Number);
    return { x: x!, y: y! };
  });
  const devices = fixture.session.runtime.platform as MockDevices;
  const byApi = await pickedByApi(client, (point) => devices.pointer.moveTo(point), points);
  const byCli = points.map((point) => pickedByCli(process.env, ['--provider', 'mock'], point));
  assert.deepEqual(byApi, byCli);
  assert.deepEqual(byCli, [...expected.values()]);
});
