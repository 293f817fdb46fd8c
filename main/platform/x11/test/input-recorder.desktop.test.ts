import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KeyboardController } from '../../../runtime/input/keyboard.js';
import { PointerController } from '../../../runtime/input/pointer.js';
import { centerOf } from '../../../runtime/input/pointer-motion.js';
import type { PlatformBundle, RecordedInput } from '../../../core/platform.js';
import { createX11Platform } from '../factory.js';
import { ProbeApp, sleep, useDesktop, type TestDesktop } from './support/desktop.js';

// Recording through RECORD: real input (XTest) on a real GTK window reaches the application as before (the check
// box toggles, the entry gets the text) while the recording gets a copy of every button, key and motion event.

async function until<T>(read: () => T | undefined, what: string, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('X11 input recording through RECORD (desktop)', () => {
  let desktop: TestDesktop;
  let platform: PlatformBundle;
  let probe: ProbeApp;

  before(async () => {
    desktop = await useDesktop();
    platform = await createX11Platform({ env: desktop.env });
    probe = await ProbeApp.start(desktop.env, 'Record probe', 180, 160);
    await platform.windowManager!.activate((await platform.windowManager!.resolveWindow({ processId: probe.pid }))!);
  });

  after(async () => {
    await probe?.stop();
    await platform?.shutdown();
    await desktop?.stop();
  });

  it('is a capability of the X11 platform (Xvfb offers RECORD)', () => {
    assert.ok(platform.inputRecorder);
    assert.ok(!platform.unavailable.some((u) => u.device === 'inputRecorder'));
  });

  it('copies clicks, keys with their characters and motion, while the application still gets them', async () => {
    const events: RecordedInput[] = [];
    const recording = await platform.inputRecorder!.start((event) => events.push(event));
    assert.equal(recording.mechanism, 'RECORD');
    const pointer = new PointerController(platform.pointer!);
    const keyboard = new KeyboardController(platform.keyboard!);
    const toggles = probe.events.filter((e) => e.event === 'check').length;
    try {
      const check = centerOf(probe.ready.check!);
      await pointer.click(check);
      await until(
        () => (probe.events.filter((e) => e.event === 'check').length > toggles ? true : undefined),
        'the click to toggle the check box',
      );
      await pointer.click(centerOf(probe.ready.entry!));
      await keyboard.type('aB<Ctrl+a>');
      await probe.waitForLast('text', (e) => e.text === 'aB');
      const buttons = await until(() => {
        const found = events.filter((e) => e.type === 'button');
        return found.length >= 4 ? found : undefined;
      }, 'four button events');
      assert.deepEqual(
        buttons.slice(0, 2).map((e) => e.type === 'button' && [e.state, e.button, e.point, e.onOwnWindow]),
        [
          ['press', 'left', check, false],
          ['release', 'left', check, false],
        ],
      );
      assert.ok(events.some((e) => e.type === 'motion' && e.point.x === check.x && e.point.y === check.y));
      const presses = await until(() => {
        const found = events.flatMap((e) => (e.type === 'key' && e.state === 'press' ? [e] : []));
        return found.length >= 5 ? found : undefined;
      }, 'five key presses');
      assert.deepEqual(
        presses.map((e) => [e.key, e.character ?? null, e.isModifier]),
        [
          ['a', 'a', false],
          ['Shift', null, true],
          ['b', 'B', false],
          ['Ctrl', null, true],
          ['a', 'a', false],
        ],
      );
      for (let i = 1; i < events.length; i++) assert.ok(events[i]!.serverTime >= events[i - 1]!.serverTime);
    } finally {
      await recording.stop();
    }
    const count = events.length;
    await pointer.click(centerOf(probe.ready.check!));
    await sleep(150);
    assert.equal(events.length, count, 'a stopped recording gets nothing');
    await recording.stop(); // idempotent
  });
});
