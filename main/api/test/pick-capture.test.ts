import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { InspectorClient } from '../../../shared/api/client.js';
import type { InspectorEvent } from '../../../shared/api/schema.js';
import type { MockDevices } from '../../platform/mock/mock-platform.js';
import type { PlatformBundle, PointerCapture, PointerCaptureEvent } from '../../core/platform.js';
import { openHost, type HostFixture } from './support.js';

// What the picker does with a captured pointer, on the mock desktop with a scripted capture device standing in for
// the X11 grab (its real behaviour is tested in main/platform/x11/test/pointer-capture.desktop.test.ts).

class ScriptedCapture {
  listener: ((event: PointerCaptureEvent) => void) | undefined;
  held = 0;
  released = 0;
  fail: string | undefined;
  readonly device = {
    capture: async (listener: (event: PointerCaptureEvent) => void): Promise<PointerCapture> => {
      if (this.fail) throw new Error(this.fail);
      this.listener = listener;
      this.held++;
      let done = false;
      return {
        keys: ['Escape'],
        release: async () => {
          if (done) return;
          done = true;
          this.held--;
          this.released++;
        },
      };
    },
  };
  send(event: PointerCaptureEvent): void {
    this.listener!(event);
  }
}

let fixture: HostFixture;
let client: InspectorClient;
let devices: MockDevices;
const scripted = new ScriptedCapture();
const okButton = { x: 150, y: 130 };

before(async () => {
  fixture = await openHost({ providers: ['mock'], platform: 'mock' });
  ({ client } = await fixture.connect());
  devices = fixture.context.runtime.platform as MockDevices;
  (devices as PlatformBundle).pointerCapture = scripted.device;
});
after(async () => {
  await fixture.close();
});

function next<T extends InspectorEvent['type']>(
  type: T,
  match: (event: Extract<InspectorEvent, { type: T }>) => boolean = () => true,
): Promise<Extract<InspectorEvent, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} within 5 s`)), 5000);
    const off = client.on(type, (event) => {
      if (!match(event)) return;
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
}

const button = (point: { x: number; y: number }, state: 'press' | 'release', onOwnWindow = false) =>
  ({ type: 'button', button: 'left', state, point, onOwnWindow }) as const;

test('a captured click selects the element under it (the cycled one), then the pointer is given back', async () => {
  await devices.pointer.moveTo(okButton);
  const hovered = next('pick.hover', (e) => e.node?.runtimeId === 'mock:button-toolbar-ok');
  assert.deepEqual(await client.startPick(20), { started: true, clickSelects: true });
  assert.equal(scripted.held, 1);
  await hovered;
  // Wheel up: one step towards the window, as the arrow keys do.
  const cycled = next('pick.hover', (e) => e.depth === 1);
  scripted.send({ type: 'wheel', deltaY: -1, point: okButton });
  assert.equal((await cycled).node?.runtimeId, 'mock:pane-toolbar');
  const selected = next('pick.selected');
  scripted.send(button(okButton, 'press'));
  scripted.send(button(okButton, 'release'));
  assert.equal(
    (await selected).node.runtimeId,
    'mock:pane-toolbar',
    'the press alone does not select; the release does',
  );
  assert.equal(scripted.held, 0, 'the capture ended with the pick');
});

test('a click at another point than the last hover selects what is there', async () => {
  await devices.pointer.moveTo({ x: 5, y: 5 });
  await client.startPick(2000);
  const selected = next('pick.selected');
  scripted.send(button(okButton, 'release'));
  assert.equal((await selected).node.runtimeId, 'mock:button-toolbar-ok');
  assert.equal(scripted.held, 0);
});

test('Escape, a right click and a click on the inspector itself cancel', async () => {
  for (const [event, reason] of [
    [{ type: 'key', key: 'Escape' }, 'cancelled'],
    [{ type: 'button', button: 'right', state: 'release', point: okButton, onOwnWindow: false }, 'cancelled'],
    [button(okButton, 'release', true), 'cancelled: the click was on the inspector'],
  ] as const) {
    await client.startPick(2000);
    const stopped = next('pick.stopped');
    scripted.send(event);
    assert.equal((await stopped).reason, reason);
    assert.equal(scripted.held, 0, `released after ${reason}`);
  }
});

test('stopping, a closed connection and a failed capture all leave no capture behind', async () => {
  await client.startPick(2000);
  assert.equal(scripted.held, 1);
  await client.stopPick();
  assert.equal(scripted.held, 0);
  const other = await fixture.connect();
  await other.client.startPick(2000);
  assert.equal(scripted.held, 1);
  other.socket.close();
  for (let i = 0; i < 100 && scripted.held > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(scripted.held, 0, 'the closed connection released it');
  scripted.fail = 'AlreadyGrabbed';
  const started = await client.startPick(2000);
  assert.deepEqual(started, { started: true, clickSelects: false, clickNote: 'AlreadyGrabbed' });
  await client.stopPick();
  scripted.fail = undefined;
});
