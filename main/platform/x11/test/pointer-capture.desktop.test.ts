import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { KeyboardController } from '../../../runtime/input/keyboard.js';
import { PointerController } from '../../../runtime/input/pointer.js';
import { centerOf } from '../../../runtime/input/pointer-motion.js';
import type { PlatformBundle, PointerCapture, PointerCaptureEvent } from '../../../core/platform.js';
import { createX11Platform } from '../factory.js';
import { ProbeApp, sleep, until, useDesktop, type TestDesktop } from './support/desktop.js';

// Picking by clicking: while the pointer is captured a real click (XTest) on a real GTK check box reaches the
// capture and not the check box, Escape is captured, other keys still reach the focused window; once released
// (by release(), or by the death of the process that held it) the same click toggles the check box again.

const factoryModule = fileURLToPath(new URL('../factory.js', import.meta.url));

describe('X11 pointer capture for picking (desktop)', () => {
  let desktop: TestDesktop;
  let platform: PlatformBundle;
  let probe: ProbeApp;
  let pointer: PointerController;
  let keyboard: KeyboardController;
  const checkToggles = () => probe.events.filter((e) => e.event === 'check').length;

  before(async () => {
    desktop = await useDesktop();
    platform = await createX11Platform({ env: desktop.env });
    probe = await ProbeApp.start(desktop.env, 'Capture probe', 160, 140);
    pointer = new PointerController(platform.pointer!);
    keyboard = new KeyboardController(platform.keyboard!);
    await platform.windowManager!.activate((await platform.windowManager!.resolveWindow({ processId: probe.pid }))!);
  });

  after(async () => {
    await probe?.stop();
    await platform?.shutdown();
    await desktop?.stop();
  });

  it('is a capability of the X11 platform', () => {
    assert.ok(platform.pointerCapture);
    assert.ok(!platform.unavailable.some((u) => u.device === 'pointerCapture'));
  });

  it('takes clicks and wheel steps away from the application, captures Escape, lets other keys through', async () => {
    const events: PointerCaptureEvent[] = [];
    const check = centerOf(probe.ready.check!);
    const toggles = checkToggles();
    const capture = await platform.pointerCapture!.capture((event) => events.push(event));
    try {
      assert.deepEqual(capture.keys, ['Escape']);
      await pointer.click(check);
      const release = await until(
        () => events.find((e) => e.type === 'button' && e.state === 'release'),
        'the captured release',
      );
      assert.deepEqual(
        events.filter((e) => e.type === 'button'),
        [
          { type: 'button', button: 'left', state: 'press', point: check, onOwnWindow: false },
          { type: 'button', button: 'left', state: 'release', point: check, onOwnWindow: false },
        ],
      );
      assert.ok(release);
      await platform.pointer!.scroll(0, 1);
      await platform.pointer!.scroll(0, -1);
      await until(() => (events.filter((e) => e.type === 'wheel').length >= 2 ? true : undefined), 'two wheel steps');
      assert.deepEqual(
        events.filter((e) => e.type === 'wheel').map((e) => e.type === 'wheel' && e.deltaY),
        [1, -1],
      );
      // The focused entry still gets typed keys; Escape goes to the capture.
      probe.child.stdin!.write('focus-entry\n');
      await probe.waitFor((e) => e.event === 'focused');
      await keyboard.type('ok');
      await probe.waitForLast('text', (e) => e.text === 'ok');
      await keyboard.type('<Escape>');
      await until(() => events.find((e) => e.type === 'key'), 'the captured Escape');
      await sleep(150);
      assert.equal(checkToggles(), toggles, 'the captured click did not toggle the check box');
    } finally {
      await capture.release();
    }
    await pointer.click(check);
    await until(() => (checkToggles() > toggles ? true : undefined), 'the click to reach the check box');
    assert.equal(checkToggles(), toggles + 1, 'after the release the same click reaches the check box');
    await capture.release(); // idempotent
  });

  it('a second capture while one is held fails clearly, and the first still holds', async () => {
    const first = await platform.pointerCapture!.capture(() => undefined);
    let second: PointerCapture | undefined;
    try {
      const other = await createX11Platform({ env: desktop.env });
      try {
        await assert.rejects(
          other.pointerCapture!.capture(() => undefined).then((c) => (second = c)),
          {
            code: 'action-failed',
            message: /AlreadyGrabbed/,
          },
        );
      } finally {
        await other.shutdown();
      }
      const toggles = checkToggles();
      await pointer.click(centerOf(probe.ready.check!));
      await sleep(150);
      assert.equal(checkToggles(), toggles, 'the first capture still takes the click');
    } finally {
      await second?.release();
      await first.release();
    }
  });

  it('reports clicks on the inspector own windows (PLATYNUI_EXCLUDE_PIDS) as such', async () => {
    const own = await createX11Platform({ env: { ...desktop.env, PLATYNUI_EXCLUDE_PIDS: String(probe.pid) } });
    const events: PointerCaptureEvent[] = [];
    const capture = await own.pointerCapture!.capture((event) => events.push(event));
    try {
      await pointer.click(centerOf(probe.ready.label!));
      const press = await until(() => events.find((e) => e.type === 'button'), 'the captured press');
      assert.equal(press.type === 'button' && press.onOwnWindow, true);
    } finally {
      await capture.release();
      await own.shutdown();
    }
  });

  it('a process that dies while it holds the pointer leaves no grab behind', async () => {
    const script = `
      const { createX11Platform } = await import(${JSON.stringify(factoryModule)});
      const platform = await createX11Platform({ env: process.env });
      await platform.pointerCapture.capture(() => {});
      process.stdout.write('captured\\n');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: desktop.env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await until(() => (out.includes('captured') ? true : undefined), 'the child to capture the pointer', 10000);
    // While the child holds the pointer, nobody else can take it.
    await assert.rejects(
      platform.pointerCapture!.capture(() => undefined),
      /AlreadyGrabbed/,
    );
    const toggles = checkToggles();
    child.kill('SIGKILL');
    await once(child, 'exit');
    await pointer.click(centerOf(probe.ready.check!));
    await until(() => (checkToggles() > toggles ? true : undefined), 'the click to reach the check box again');
  });
});
