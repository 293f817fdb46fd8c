import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ScreenshotDevice } from '../../core/platform.js';
import { ScreenChangeTracker } from '../screen-changes.js';

/** A screenshot device whose "the screen changed" reports the test sends by hand. */
function fakeDevice() {
  const listeners = new Set<() => void>();
  let watches = 0;
  const device: ScreenshotDevice = {
    capture: () => Promise.reject(new Error('not captured in this test')),
    watchChanges(listener) {
      watches++;
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    device,
    change: () => [...listeners].forEach((listener) => listener()),
    watching: () => listeners.size > 0,
    watches: () => watches,
  };
}

const settled = async (promise: Promise<void>, withinMs: number) =>
  Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), withinMs)),
  ]);

test('a digest the tracker has not seen captured is out of date at once', async () => {
  const tracker = new ScreenChangeTracker(fakeDevice().device);
  assert.equal(await settled(tracker.changeSince('never captured', 5000), 50), true);
});

test('waits while nothing changed since the capture and answers on the next change', async () => {
  const fake = fakeDevice();
  const tracker = new ScreenChangeTracker(fake.device);
  tracker.captured('D', tracker.captureStarts());
  const waiting = tracker.changeSince('D', 5000);
  assert.equal(await settled(waiting, 80), false, 'nothing changed: the long poll waits');
  fake.change();
  assert.equal(await settled(waiting, 50), true);
});

test('a change while a capture was taken makes that capture out of date', async () => {
  const fake = fakeDevice();
  const tracker = new ScreenChangeTracker(fake.device);
  const before = tracker.captureStarts();
  fake.change();
  tracker.captured('D', before);
  assert.equal(await settled(tracker.changeSince('D', 5000), 50), true);
});

test('a long poll without a change ends after its time', async () => {
  const tracker = new ScreenChangeTracker(fakeDevice().device);
  tracker.captured('D', tracker.captureStarts());
  const started = performance.now();
  await tracker.changeSince('D', 60);
  assert.ok(performance.now() - started >= 55);
});

test('the platform watch runs while captures come and ends when they stop; a new watch forgets old counts', async () => {
  const fake = fakeDevice();
  const tracker = new ScreenChangeTracker(fake.device, 40);
  tracker.captured('D', tracker.captureStarts());
  assert.equal(fake.watching(), true);
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert.equal(fake.watching(), false, 'idle: the watch ended');
  // Changes while nobody watched are unknown, so D counts as out of date.
  assert.equal(await settled(tracker.changeSince('D', 5000), 50), true);
  assert.equal(fake.watches(), 2);
});
