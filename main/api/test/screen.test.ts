// The Screen panel's API on the mock provider and platform: captures with their transform (pixels checked against
// the mock screen's pattern), the unchanged answer, the pixel limit, JPEG, the element at a point agreeing with CLI
// `pick --at`, Bounds of nodes, and interact mode's clicks, wheel and keys reaching the platform devices.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { InspectorClient } from '../../../shared/api/client.js';
import type { MockDevices } from '../../../main/platform/mock/mock-platform.js';
import { decodePng } from '../../runtime/screenshot-png.js';
import { clipRegion, imageSize } from '../../services/screen.js';
import { rejection } from '../../../e2e/support/rejection.js';
import { pickedByCli } from './pick-agreement.js';
import { openHost, type HostFixture } from './support.js';

let fixture: HostFixture;
let client: InspectorClient;

before(async () => {
  fixture = await openHost({ providers: ['mock'], platform: 'mock' }, { limits: { maxScreenPixels: 1_000_000 } });
  ({ client } = await fixture.connect());
});
after(async () => {
  await fixture.close();
});

const devices = () => fixture.context.runtime.platform as MockDevices;

test('a region captured at scale 1 is the screen pixel for pixel, and the transform maps desktop to image', async () => {
  const shot = await client.captureScreen({ region: { x: 10, y: 20, width: 64, height: 32 } });
  assert.equal(shot.changed, true);
  assert.equal(shot.mimeType, 'image/png');
  assert.equal(shot.changeEvents, false, 'the mock platform does not report screen changes: clients poll');
  assert.deepEqual([shot.width, shot.height], [64, 32]);
  assert.deepEqual(shot.region, { x: 10, y: 20, width: 64, height: 32 });
  assert.deepEqual(shot.transform, { scale: 1, x: -10, y: -20 });
  const image = decodePng(Buffer.from(shot.data!, 'base64'));
  assert.deepEqual([image.width, image.height], [64, 32]);
  // The mock screen paints each pixel (x, y) of a capture as red x, green y, blue 0x80.
  const at = (x: number, y: number) => [...image.pixels.subarray((y * 64 + x) * 4, (y * 64 + x) * 4 + 4)];
  assert.deepEqual(at(0, 0), [0, 0, 0x80, 255]);
  assert.deepEqual(at(63, 31), [63, 31, 0x80, 255]);
});

test('a capture of an unchanged screen with ifChanged comes back without an image', async () => {
  const region = { x: 0, y: 0, width: 40, height: 30 };
  const first = await client.captureScreen({ region });
  const again = await client.captureScreen({ region, ifChanged: first.digest });
  assert.equal(again.changed, false);
  assert.equal(again.data, undefined);
  assert.equal(again.digest, first.digest);
  const other = await client.captureScreen({ region, ifChanged: 'an older digest' });
  assert.equal(other.changed, true);
  assert.ok(other.data);
});

test('a scaled capture has the scaled size and transform; JPEG is JPEG', async () => {
  const shot = await client.captureScreen({ region: { x: 100, y: 50, width: 40, height: 20 }, scale: 0.5 });
  assert.deepEqual([shot.width, shot.height], [20, 10]);
  assert.deepEqual(shot.transform, { scale: 0.5, x: -50, y: -25 });
  assert.deepEqual([decodePng(Buffer.from(shot.data!, 'base64')).width], [20]);
  const jpeg = await client.captureScreen({ region: { x: 0, y: 0, width: 64, height: 64 }, format: 'jpeg' });
  assert.equal(jpeg.mimeType, 'image/jpeg');
  assert.deepEqual([...Buffer.from(jpeg.data!, 'base64').subarray(0, 3)], [0xff, 0xd8, 0xff]);
});

test('captures are bounded: the pixel limit names a scale that fits, bad regions and scales are refused', async () => {
  // The mock desktop is 7920x3840: over the 1,000,000 pixels this host allows.
  const tooLarge = await rejection(client.captureScreen());
  assert.equal(tooLarge.code, 'limit-exceeded');
  assert.match(
    tooLarge.message,
    /7920x3840 image has more than 1000000 pixels \(limits\.maxScreenPixels\); ask for scale 0\.18/,
  );
  const fits = await client.captureScreen({ scale: 0.18 });
  assert.ok(fits.width * fits.height <= 1_000_000);
  assert.equal(fits.transform.x, 2160 * fits.transform.scale, 'the desktop starts at x -2160');
  const upscaled = await rejection(client.captureScreen({ region: { x: 0, y: 0, width: 8, height: 8 }, scale: 2 }));
  assert.equal(upscaled.code, 'invalid-input');
  assert.equal(upscaled.path, 'params.scale');
  const outside = await rejection(client.captureScreen({ region: { x: 90_000, y: 0, width: 8, height: 8 } }));
  assert.equal(outside.code, 'invalid-input');
  assert.match(outside.message, /lies outside the desktop/);
});

test('clipRegion and imageSize: whole pixels inside the desktop, at least one pixel', () => {
  const desktop = { x: 0, y: 0, width: 100, height: 50 };
  assert.deepEqual(clipRegion({ x: -5.5, y: 10.2, width: 20, height: 100 }, desktop), {
    x: 0,
    y: 10,
    width: 15,
    height: 40,
  });
  assert.deepEqual(clipRegion(undefined, desktop), desktop);
  assert.deepEqual(imageSize({ x: 0, y: 0, width: 3, height: 3 }, 0.01, 100), { width: 1, height: 1 });
  assert.throws(() => imageSize(desktop, 1, 4999), /ask for scale 0\.99 or less/);
});

test('the element at a point is what CLI pick --at names there, with its stack and Bounds', async () => {
  await client.evaluate('//*').done;
  const { stack } = await client.elementAt(150, 130);
  assert.equal(stack[0]?.node.runtimeId, 'mock:button-toolbar-ok');
  assert.deepEqual(stack[0]?.bounds, { x: 110, y: 115, width: 80, height: 30 });
  assert.equal(stack[1]?.node.runtimeId, 'mock:pane-toolbar');
  assert.equal(pickedByCli(process.env, ['--provider', 'mock'], { x: 150, y: 130 }), stack[0]?.node.runtimeId);
  assert.deepEqual((await client.elementAt(-100_000, -100_000)).stack, []);
});

test('screen.bounds answers each node in order, null for one that is not known', async () => {
  await client.evaluate('//*').done;
  const { rects } = await client.boundsOf(['mock:button-toolbar-ok', 'mock:no-such-node']);
  assert.deepEqual(rects, [{ x: 110, y: 115, width: 80, height: 30 }, null]);
});

test('interact mode: clicks, wheel steps and keys go to the platform pointer and keyboard', async () => {
  devices().takePointerLog();
  devices().takeKeyboardLog();
  await client.clickScreen(150, 130);
  assert.deepEqual(devices().takePointerLog(), ['move 150,130', 'press left', 'release left']);
  await client.clickScreen(10, 20, { button: 'right', count: 2 });
  assert.deepEqual(devices().takePointerLog(), [
    'move 10,20',
    'press right',
    'release right',
    'press right',
    'release right',
  ]);
  await client.scrollScreen(5, 6, 0, 2);
  assert.deepEqual(devices().takePointerLog(), ['move 5,6', 'scroll 0,1', 'scroll 0,1']);
  await client.typeKeys('a<Enter>');
  assert.deepEqual(devices().takeKeyboardLog(), ['press a', 'release a', 'press Enter', 'release Enter']);
  const unknown = await rejection(client.typeKeys('<NoSuchKey>'));
  assert.equal(unknown.code, 'unsupported');
  assert.deepEqual(devices().takeKeyboardLog(), [], 'nothing is typed when a key is unknown');
});

test('without a platform there is no screen to capture or act on', async () => {
  const bare = await openHost({ providers: ['mock'], platform: 'none' });
  try {
    const { client: other } = await bare.connect();
    assert.equal((await rejection(other.captureScreen())).code, 'unsupported');
    assert.equal((await rejection(other.clickScreen(1, 1))).code, 'unsupported');
    assert.equal((await rejection(other.typeKeys('a'))).code, 'unsupported');
  } finally {
    await bare.close();
  }
});
