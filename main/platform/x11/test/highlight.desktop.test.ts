import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Rect } from '../../../../shared/model/values.js';
import { PointerController } from '../../../runtime/input/pointer.js';
import type { PlatformBundle, Screenshot } from '../../../core/platform.js';
import { decodePng } from '../../../runtime/screenshot-png.js';
import { createX11Platform } from '../factory.js';
import { HIGHLIGHT_COLOR, HIGHLIGHT_THICKNESS } from '../highlight.js';
import { ProbeApp, runTool, sleep, useDesktop, type TestDesktop } from './support/desktop.js';

/** What is on screen, read by ImageMagick rather than by the platform under test. */
function screen(env: NodeJS.ProcessEnv): Screenshot {
  return decodePng(runTool('import', ['-window', 'root', 'png:-'], env));
}

function pixel(shot: Screenshot, x: number, y: number): number[] {
  const i = (y * shot.width + x) * 4;
  return [shot.pixels[i]!, shot.pixels[i + 1]!, shot.pixels[i + 2]!];
}

const highlightColor = [HIGHLIGHT_COLOR.red, HIGHLIGHT_COLOR.green, HIGHLIGHT_COLOR.blue];
const isHighlight = (shot: Screenshot, x: number, y: number) =>
  pixel(shot, x, y).every((value, i) => value === highlightColor[i]);

/** Points on the frame drawn around a rectangle: the middle of each side, just outside the rectangle. */
function framePoints(rect: Rect): Array<[number, number]> {
  const t = HIGHLIGHT_THICKNESS;
  const cx = Math.floor(rect.x + rect.width / 2);
  const cy = Math.floor(rect.y + rect.height / 2);
  return [
    [cx, rect.y - t],
    [cx, rect.y + rect.height + t - 1],
    [rect.x - t, cy],
    [rect.x + rect.width + t - 1, cy],
  ];
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await sleep(25);
  }
  return check();
}

describe('X11 highlight (desktop)', () => {
  let desktop: TestDesktop;
  let platform: PlatformBundle;
  let probe: ProbeApp;

  before(async () => {
    desktop = await useDesktop();
    platform = await createX11Platform({ env: desktop.env });
    probe = await ProbeApp.start(desktop.env, 'Highlight probe', 300, 200);
  });

  after(async () => {
    await probe?.stop();
    await platform?.shutdown();
    await desktop?.stop();
  });

  it('draws a frame around each rectangle on screen and clears it after its duration', async () => {
    const a = { x: 60, y: 60, width: 120, height: 40 };
    const b = { x: 400, y: 500, width: 80, height: 80 };
    const before = screen(desktop.env);
    const start = Date.now();
    // Long enough for a screen read on a loaded machine (one `import` of the root window took over 1 s at load 16).
    const durationMs = 3000;
    await platform.highlight!.highlight({ rects: [a, b], durationMs });
    const shown = screen(desktop.env);
    const elapsed = Date.now() - start;
    assert.ok(elapsed < durationMs, `screen read within the duration (${elapsed} ms)`);
    for (const [x, y] of [...framePoints(a), ...framePoints(b)])
      assert.ok(isHighlight(shown, x, y), `frame at ${x},${y}`);
    // The inside of the rectangle stays untouched.
    assert.deepEqual(pixel(shown, a.x + 10, a.y + 10), pixel(before, a.x + 10, a.y + 10));
    assert.ok(await until(() => !isHighlight(screen(desktop.env), a.x + 5, a.y - 1), durationMs + 2000), 'frame gone');
    assert.ok(Date.now() - start >= durationMs, 'not before the duration');
    const after = screen(desktop.env);
    for (const [x, y] of [...framePoints(a), ...framePoints(b)])
      assert.deepEqual(pixel(after, x, y), pixel(before, x, y));
  });

  it('keeps one highlight at a time: a new one replaces the old', async () => {
    const first = { x: 50, y: 400, width: 60, height: 60 };
    const second = { x: 700, y: 100, width: 60, height: 60 };
    await platform.highlight!.highlight({ rects: [first] });
    await platform.highlight!.highlight({ rects: [second] });
    const shot = screen(desktop.env);
    assert.ok(!isHighlight(shot, ...framePoints(first)[0]!), 'old frame gone');
    assert.ok(isHighlight(shot, ...framePoints(second)[0]!), 'new frame shown');
    await platform.highlight!.clear();
    assert.ok(!isHighlight(screen(desktop.env), ...framePoints(second)[0]!), 'cleared');
  });

  it('clamps to the desktop: a rectangle covering everything shows along the screen edges', async () => {
    const bounds = (await platform.desktopInfo!.describe()).bounds;
    await platform.highlight!.highlight({
      rects: [{ x: -100, y: -100, width: bounds.width + 200, height: bounds.height + 200 }],
    });
    const shot = screen(desktop.env);
    assert.ok(isHighlight(shot, 0, 300));
    assert.ok(isHighlight(shot, bounds.width - 1, 300));
    assert.ok(isHighlight(shot, 300, 0));
    assert.ok(isHighlight(shot, 300, bounds.height - 1));
    await platform.highlight!.clear();
  });

  it('takes no focus, stays out of the window list and lets clicks through', async () => {
    const wm = platform.windowManager!;
    const probeWindow = await wm.resolveWindow({ processId: probe.pid });
    assert.ok(probeWindow);
    await wm.activate(probeWindow);
    assert.equal(await wm.isActive(probeWindow), true);
    const check = probe.ready.check!;
    // Frame the check box so that the frame's left bar lies over the box itself.
    const rect = {
      x: check.x + 3 + HIGHLIGHT_THICKNESS,
      y: check.y - 4,
      width: check.width / 2,
      height: check.height + 8,
    };
    await platform.highlight!.highlight({ rects: [rect] });
    const barX = rect.x - 2;
    const barY = check.y + Math.floor(check.height / 2);
    assert.ok(isHighlight(screen(desktop.env), barX, barY), 'the frame covers the point');
    assert.equal(await wm.isActive(probeWindow), true, 'focus stays with the application');
    const listed = (await wm.list()).map((w) => w.processId);
    assert.ok(!listed.includes(process.pid), 'no highlight window among the managed windows');
    const atPoint = await wm.windowsAtPoint({ x: barX, y: barY });
    assert.equal(atPoint[0]?.id, probeWindow, 'picking sees through the highlight');
    const pointer = new PointerController(platform.pointer!);
    const before = probe.last('check')?.active ?? false;
    await pointer.click({ x: barX, y: barY });
    await probe.waitForLast('check', (e) => e.active === !before);
    await platform.highlight!.clear();
  });
});
