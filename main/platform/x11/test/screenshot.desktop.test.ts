import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PlatformBundle, Screenshot } from '../../../core/platform.js';
import { decodePng, encodePng } from '../../../runtime/screenshot-png.js';
import { createX11Platform } from '../factory.js';
import { ProbeApp, runTool, useDesktop, type TestDesktop } from './support/desktop.js';

/** Rgba of one pixel, whatever the byte order of the screenshot. */
function rgba(shot: Screenshot, x: number, y: number): number[] {
  const i = (y * shot.width + x) * 4;
  const p = shot.pixels;
  return shot.format === 'Rgba8' ? [p[i]!, p[i + 1]!, p[i + 2]!, p[i + 3]!] : [p[i + 2]!, p[i + 1]!, p[i]!, p[i + 3]!];
}

function differingPixels(a: Screenshot, b: Screenshot, offsetX = 0, offsetY = 0): number {
  let count = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const pa = rgba(a, x, y);
      const pb = rgba(b, x + offsetX, y + offsetY);
      if (pa[0] !== pb[0] || pa[1] !== pb[1] || pa[2] !== pb[2]) count++;
    }
  }
  return count;
}

describe('X11 screenshot (desktop)', () => {
  let desktop: TestDesktop;
  let platform: PlatformBundle;
  let probe: ProbeApp;

  before(async () => {
    desktop = await useDesktop();
    platform = await createX11Platform({ env: desktop.env });
    probe = await ProbeApp.start(desktop.env, 'Screenshot probe', 120, 90);
  });

  after(async () => {
    await probe?.stop();
    await platform?.shutdown();
    await desktop?.stop();
  });

  it('captures the whole desktop exactly as the X server shows it (ImageMagick import)', async () => {
    const ours = await platform.screenshot!.capture();
    const theirs = decodePng(runTool('import', ['-window', 'root', 'png:-'], desktop.env));
    const info = await platform.desktopInfo!.describe();
    assert.equal(ours.width, info.bounds.width);
    assert.equal(ours.height, info.bounds.height);
    assert.equal(theirs.width, ours.width);
    assert.equal(theirs.height, ours.height);
    assert.equal(differingPixels(ours, theirs), 0);
    // Not a blank screen: the probe window is on it.
    const window = probe.ready.window!;
    const inside = rgba(ours, window.x + 5, window.y + window.height - 5);
    const outside = rgba(ours, 2, info.bounds.height - 2);
    assert.notDeepEqual(inside.slice(0, 3), outside.slice(0, 3));
  });

  it('captures a region equal to the same part of the whole desktop', async () => {
    const region = { x: 130, y: 100, width: 217, height: 93 };
    const full = await platform.screenshot!.capture();
    const part = await platform.screenshot!.capture(region);
    assert.equal(part.width, 217);
    assert.equal(part.height, 93);
    assert.equal(differingPixels(part, full, region.x, region.y), 0);
  });

  it('clips a region to the desktop and rejects one outside it', async () => {
    const bounds = (await platform.desktopInfo!.describe()).bounds;
    const part = await platform.screenshot!.capture({ x: bounds.width - 10, y: -5, width: 50, height: 20 });
    assert.equal(part.width, 10);
    assert.equal(part.height, 15);
    await assert.rejects(
      platform.screenshot!.capture({ x: bounds.width + 10, y: 0, width: 5, height: 5 }),
      /lies outside the desktop/,
    );
  });

  it('encodes to a PNG that reads back pixel for pixel', async () => {
    const shot = await platform.screenshot!.capture({ x: 100, y: 80, width: 300, height: 200 });
    const png = encodePng(shot);
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const back = decodePng(png);
    assert.equal(back.format, 'Rgba8');
    assert.equal(differingPixels(shot, back), 0);
  });

  it('reports a change of the screen (X DAMAGE) after something is drawn, and nothing while the screen is still', async () => {
    const watchChanges = platform.screenshot!.watchChanges;
    assert.ok(watchChanges, 'Xvfb has DAMAGE, so the X11 screenshot device reports changes');
    let changes = 0;
    const stop = watchChanges.call(platform.screenshot, () => changes++);
    try {
      // Whatever was being drawn when the watch started settles first.
      await waitUntil(() => changes > 0, 300).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const still = changes;
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(changes, still, 'no change reported while nothing is drawn');
      await platform.highlight!.highlight({ rects: [{ x: 40, y: 40, width: 100, height: 60 }] });
      await waitUntil(() => changes > still, 5000);
      await platform.highlight!.clear();
    } finally {
      stop();
    }
  });
});

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
