import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PlatformBundle, WindowManager } from '../../../core/platform.js';
import { createX11Platform } from '../factory.js';
import { ProbeApp, runTool, sleep, useDesktop, xwininfo, type TestDesktop } from './support/desktop.js';

function netWmState(id: number, env: NodeJS.ProcessEnv): string {
  return runTool('xprop', ['-id', String(id), '_NET_WM_STATE'], env).toString();
}

function activeWindow(env: NodeJS.ProcessEnv): number {
  const text = runTool('xprop', ['-root', '_NET_ACTIVE_WINDOW'], env).toString();
  return Number.parseInt(/window id # (0x[0-9a-f]+)/.exec(text)![1]!, 16);
}

describe('X11 window manager through EWMH (desktop, openbox)', () => {
  let desktop: TestDesktop;
  let platform: PlatformBundle;
  let wm: WindowManager;
  let first: ProbeApp;
  let second: ProbeApp;
  let firstId: number;
  let secondId: number;

  before(async () => {
    desktop = await useDesktop();
    platform = await createX11Platform({ env: desktop.env });
    wm = platform.windowManager!;
    first = await ProbeApp.start(desktop.env, 'WM probe one', 100, 100);
    second = await ProbeApp.start(desktop.env, 'WM probe two', 250, 180);
    firstId = first.ready.xid!;
    secondId = second.ready.xid!;
  });

  after(async () => {
    await first?.stop();
    await second?.stop();
    await platform?.shutdown();
    await desktop?.stop();
  });

  it('lists the managed windows with process id, name, bounds and the active one', async () => {
    const windows = await wm.list();
    const one = windows.find((w) => w.id === firstId);
    const two = windows.find((w) => w.id === secondId);
    assert.ok(one && two);
    assert.equal(one.processId, first.pid);
    assert.equal(one.name, 'WM probe one');
    assert.deepEqual(one.bounds, xwininfo(firstId, desktop.env));
    assert.equal(windows.filter((w) => w.isActive).length, 1);
  });

  it('resolves a window from a process id, disambiguating by name and bounds', async () => {
    assert.equal(await wm.resolveWindow({ processId: first.pid }), firstId);
    assert.equal(await wm.resolveWindow({ processId: second.pid, name: 'WM probe two' }), secondId);
    assert.equal(await wm.resolveWindow({ name: 'WM probe one' }), firstId);
    assert.equal(await wm.resolveWindow({ processId: 999999999 }), undefined);
    assert.equal(await wm.resolveWindow({ name: 'no such window title' }), undefined);
  });

  it('activates a window and reports it active', async () => {
    await wm.activate(firstId);
    assert.equal(activeWindow(desktop.env), firstId);
    assert.equal(await wm.isActive(firstId), true);
    assert.equal(await wm.isActive(secondId), false);
    await wm.activate(secondId);
    assert.equal(activeWindow(desktop.env), secondId);
  });

  it('finds the windows under a point, topmost first, from the stacking order', async () => {
    // The windows overlap around (300, 250): the active (raised) one is on top.
    await wm.activate(firstId);
    const point = { x: 300, y: 250 };
    let stack = await wm.windowsAtPoint(point);
    assert.deepEqual(
      stack.filter((w) => w.id === firstId || w.id === secondId).map((w) => w.id),
      [firstId, secondId],
    );
    await wm.activate(secondId);
    stack = await wm.windowsAtPoint(point);
    assert.deepEqual(
      stack.filter((w) => w.id === firstId || w.id === secondId).map((w) => w.id),
      [secondId, firstId],
    );
    const onlyFirst = await wm.windowsAtPoint({ x: 110, y: 130 });
    assert.equal(onlyFirst[0]?.id, firstId);
    assert.ok(!onlyFirst.some((w) => w.id === secondId));
  });

  it('leaves the windows of excluded processes (the inspector itself) out of picking', async () => {
    const excluding = await createX11Platform({ env: { ...desktop.env, PLATYNUI_EXCLUDE_PIDS: String(first.pid) } });
    try {
      const point = { x: 300, y: 250 };
      const stack = await excluding.windowManager!.windowsAtPoint(point);
      assert.ok(!stack.some((w) => w.id === firstId));
      assert.ok(stack.some((w) => w.id === secondId));
      assert.ok(
        (await excluding.windowManager!.list()).some((w) => w.id === firstId),
        'still listed',
      );
    } finally {
      await excluding.shutdown();
    }
  });

  it('moves and resizes a window (checked with xwininfo)', async () => {
    await wm.move(firstId, 420, 260);
    let seen = xwininfo(firstId, desktop.env);
    assert.equal(seen.x, 420);
    assert.equal(seen.y, 260);
    assert.deepEqual(await wm.bounds(firstId), seen);
    await wm.resize(firstId, 500, 300);
    seen = xwininfo(firstId, desktop.env);
    assert.equal(seen.width, 500);
    assert.equal(seen.height, 300);
    assert.equal(seen.x, 420, 'resizing keeps the position');
    // The application lays itself out again once it has handled the configure event.
    let reported = await first.bounds();
    for (let i = 0; i < 50 && reported.window!.width !== 500; i++) {
      await sleep(40);
      reported = await first.bounds();
    }
    assert.equal(reported.window!.width, 500, 'the application sees its new size');
  });

  it('maximizes and restores a window', async () => {
    const before = await wm.bounds(firstId);
    await wm.maximize(firstId);
    assert.match(netWmState(firstId, desktop.env), /_NET_WM_STATE_MAXIMIZED_VERT/);
    const maximized = await wm.bounds(firstId);
    assert.ok(maximized.width > before.width && maximized.height > before.height);
    await wm.restore(firstId);
    assert.doesNotMatch(netWmState(firstId, desktop.env), /MAXIMIZED/);
    const restored = await wm.bounds(firstId);
    assert.equal(restored.width, before.width);
    assert.equal(restored.height, before.height);
    // openbox puts the restored frame (not the client) where the client was: off by the frame's border and title.
    assert.ok(Math.abs(restored.x - before.x) <= 30 && Math.abs(restored.y - before.y) <= 30, JSON.stringify(restored));
  });

  it('minimizes and restores a window', async () => {
    await wm.minimize(secondId);
    assert.match(netWmState(secondId, desktop.env), /_NET_WM_STATE_HIDDEN/);
    assert.match(runTool('xwininfo', ['-id', String(secondId)], desktop.env).toString(), /IsUnMapped/);
    const hidden = await wm.windowsAtPoint({ x: 300, y: 250 });
    assert.ok(!hidden.some((w) => w.id === secondId), 'a minimized window is not under any point');
    await wm.restore(secondId);
    assert.doesNotMatch(netWmState(secondId, desktop.env), /HIDDEN/);
    assert.match(runTool('xwininfo', ['-id', String(secondId)], desktop.env).toString(), /IsViewable/);
  });

  it('closes a window: the application quits', async () => {
    const exited = new Promise<number | null>((resolve) => second.child.once('exit', (code) => resolve(code)));
    await wm.close(secondId);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), 3000)));
    const code = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    assert.equal(code, 0);
    assert.ok(!(await wm.list()).some((w) => w.id === secondId));
    await assert.rejects(wm.bounds(secondId), { code: 'stale-node' });
    await assert.rejects(wm.activate(secondId), /does not exist/);
  });
});
