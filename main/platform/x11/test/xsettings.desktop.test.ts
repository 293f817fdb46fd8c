import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PointerController } from '../../../runtime/input/pointer.js';
import type { DoubleClickSettings, PlatformBundle } from '../../../core/platform.js';
import { createX11Platform } from '../factory.js';
import { defaultDoubleClick, type XSettingValue } from '../xsettings.js';
import { ProbeApp, projectRoot, sleep, useDesktop, type TestDesktop } from './support/desktop.js';
import { TestXSettingsManager, doubleClickSettings } from './support/xsettings-manager.js';

describe('X11 double-click settings from a real XSETTINGS manager (desktop)', () => {
  let desktop: TestDesktop;
  let platform: PlatformBundle;
  let manager: TestXSettingsManager | undefined;
  let probe: ProbeApp | undefined;
  const read = (): DoubleClickSettings => platform.pointer!.doubleClickSettings!();
  const startManager = (settings: Array<[string, XSettingValue]>) => {
    manager?.stop();
    manager = TestXSettingsManager.start(desktop.display, settings);
    return manager;
  };
  const stopManager = () => {
    manager?.stop();
    manager = undefined;
  };

  before(async () => {
    desktop = await useDesktop();
    platform = await createX11Platform({ env: desktop.env });
  });

  after(async () => {
    stopManager();
    await probe?.stop();
    await platform?.shutdown();
    await desktop?.stop();
  });

  it('without a manager the defaults apply, and the reason is given', () => {
    assert.deepEqual(read(), defaultDoubleClick('no XSETTINGS manager owns _XSETTINGS_S0'));
    assert.equal(read().timeSource, 'default');
    assert.equal(platform.pointer!.doubleClickTimeMs(), 400);
  });

  it('reads what the manager publishes, sees each change at the next use, falls back on bad data', () => {
    const m = startManager(doubleClickSettings(650, 9));
    const first = read();
    assert.equal(first.timeMs, 650);
    assert.equal(first.timeSource, 'xsettings');
    assert.deepEqual(first.size, { width: 9, height: 9 });
    assert.equal(first.sizeSource, 'xsettings');
    assert.equal(first.detail, `XSETTINGS manager 0x${m.window.toString(16)}, serial 1`);
    assert.equal(platform.pointer!.doubleClickTimeMs(), 650);
    assert.deepEqual(platform.pointer!.doubleClickSize(), { width: 9, height: 9 });

    // A new serial in the other byte order.
    m.publish(doubleClickSettings(1200, 3), 'msb');
    assert.deepEqual([read().timeMs, read().size.width, read().detail.endsWith('serial 2')], [1200, 3, true]);

    // Only the time: the distance falls back on its own.
    m.publish(doubleClickSettings(300));
    const partial = read();
    assert.deepEqual(
      [partial.timeMs, partial.timeSource, partial.size.width, partial.sizeSource],
      [300, 'xsettings', 5, 'default'],
    );
    assert.match(partial.detail, /serial 3; Net\/DoubleClickDistance not set$/);

    // Truncated data: the defaults, with the decoder's reason; the next good serial is read again.
    m.publishBytes(Uint8Array.from([0, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 0, 0]));
    const broken = read();
    assert.equal(broken.timeMs, 400);
    assert.equal(broken.timeSource, 'default');
    assert.match(broken.detail, /malformed _XSETTINGS_SETTINGS: 2 settings announced but only 2 bytes follow/);
    m.publish(doubleClickSettings(700, 6));
    assert.equal(read().timeMs, 700);

    // The manager gone: the defaults again.
    stopManager();
    assert.equal(read().detail, 'no XSETTINGS manager owns _XSETTINGS_S0');
    assert.equal(platform.pointer!.doubleClickTimeMs(), 400);
  });

  it('info names the source of each value', () => {
    const bin = path.join(projectRoot, 'bin/platynui-inspector');
    const info = (format: string) => {
      const result = spawnSync(process.execPath, [bin, 'info', '--format', format], {
        env: desktop.env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(result.status, 0, result.stderr);
      return result.stdout;
    };
    assert.match(
      info('text'),
      /^Double click: 400 ms \(default\), 5x5 px \(default\); no XSETTINGS manager owns _XSETTINGS_S0$/m,
    );
    const m = startManager(doubleClickSettings(520, 7));
    const report = JSON.parse(info('json')) as { platform: { doubleClick: DoubleClickSettings } };
    assert.deepEqual(report.platform.doubleClick, {
      timeMs: 520,
      timeSource: 'xsettings',
      size: { width: 7, height: 7 },
      sizeSource: 'xsettings',
      detail: `XSETTINGS manager 0x${m.window.toString(16)}, serial 1`,
    });
    assert.match(info('text'), /^Double click: 520 ms \(xsettings\), 7x7 px \(xsettings\); XSETTINGS manager 0x/m);
    stopManager();
  });

  it('GTK 3 reads the same settings, and a real double click follows them', async () => {
    const m = startManager(doubleClickSettings(1500, 4));
    probe = await ProbeApp.start(desktop.env, 'XSETTINGS probe', 160, 140);
    assert.deepEqual(await probe.settings(), { event: 'settings', time: 1500, distance: 4 });
    const window = await platform.windowManager!.resolveWindow({ processId: probe.pid });
    await platform.windowManager!.activate(window!);
    const entry = (await probe.bounds()).entry!;
    const device = platform.pointer!;
    const pointer = new PointerController(device);
    // Each trial at its own point, farther apart than the distance, so GTK never joins trials into a triple click.
    let trial = 0;
    const nextPoint = () => ({ x: entry.x + 30 + 60 * trial++, y: entry.y + entry.height / 2 });
    /** The presses GTK reported for what `act` did: their kinds and the X server times between them. */
    const presses = async (act: () => Promise<void>) => {
      const start = probe!.events.length;
      await act();
      await probe!.waitFor((e) => e.event === 'press' && probe!.events.indexOf(e) >= start + 1, 3000);
      await sleep(300);
      const events = probe!.events.slice(start).filter((e) => e.event === 'press') as Array<{
        kind: string;
        time: number;
      }>;
      const singles = events.filter((e) => e.kind === 'button-press');
      return {
        kinds: events.map((e) => e.kind),
        gapMs: singles.length >= 2 ? singles[1]!.time - singles[0]!.time : NaN,
      };
    };
    /** Two clicks with `gapMs` from press to press, straight on the device. */
    const clicksApart = (gapMs: number) => async () => {
      await device.moveTo(nextPoint());
      await sleep(100);
      await device.press('left');
      await sleep(20);
      await device.release('left');
      await sleep(gapMs - 20);
      await device.press('left');
      await sleep(20);
      await device.release('left');
    };
    const slowDouble = () => pointer.multiClick(nextPoint(), 'left', 2, { multiClickDelayMs: 700 });

    // 1500 ms: clicks 700 ms apart are a double click for GTK (its default, 400 ms, would say two clicks).
    const apart = await presses(clicksApart(700));
    assert.deepEqual(apart.kinds, ['button-press', 'button-press', '2button-press'], JSON.stringify(apart));
    // The pointer may take its time inside the read 1500 ms: 700 ms between the clicks, still a double click.
    const slow = await presses(slowDouble);
    assert.deepEqual(slow.kinds, ['button-press', 'button-press', '2button-press'], JSON.stringify(slow));
    assert.ok(slow.gapMs > 600, `press to press ${slow.gapMs} ms`);

    // A change while both run: GTK (PropertyNotify) and the platform (next use) see 300 ms.
    m.publish(doubleClickSettings(300, 4));
    for (let i = 0; (await probe.settings()).time !== 300; i++) {
      assert.ok(i < 50, 'GTK picks up the new serial');
      await sleep(50);
    }
    assert.equal(device.doubleClickTimeMs(), 300);
    const tooSlow = await presses(clicksApart(700));
    assert.deepEqual(tooSlow.kinds, ['button-press', 'button-press'], JSON.stringify(tooSlow));
    // The same slow profile now fits its clicks into 300 ms, and GTK sees a double click.
    const fitted = await presses(slowDouble);
    assert.deepEqual(fitted.kinds, ['button-press', 'button-press', '2button-press'], JSON.stringify(fitted));
    assert.ok(fitted.gapMs < 300, `press to press ${fitted.gapMs} ms`);
  });
});
