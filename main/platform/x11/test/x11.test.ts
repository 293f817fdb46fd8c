import '../../../backends/linux.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InspectorError } from '../../../../shared/model/errors.js';
import { loadLibrary } from '../../../../native/x11/load.js';
import { listPlatformFactories, selectPlatformFactory } from '../../../core/registry.js';
import { scaleFromResources, unionRects } from '../desktop-info.js';
import { createX11Platform, ownProcessIds, x11PlatformFactory } from '../factory.js';
import { frameBars } from '../highlight.js';
import { characterKeysym, keyNameOfKeysymName, keysymCharacter, knownX11KeyNames, lookupKeyName } from '../keysyms.js';
import { intersectRect, toScreenshot } from '../screenshot.js';
import { detectDisplayServer } from '../display-server.js';

describe('X11 session detection', () => {
  it('follows XDG_SESSION_TYPE, then WAYLAND_DISPLAY, then DISPLAY', () => {
    assert.equal(detectDisplayServer({ XDG_SESSION_TYPE: 'x11', DISPLAY: ':3' }).kind, 'x11');
    assert.equal(detectDisplayServer({ XDG_SESSION_TYPE: 'x11' }).kind, 'none');
    assert.equal(
      detectDisplayServer({ XDG_SESSION_TYPE: 'wayland', DISPLAY: ':0', WAYLAND_DISPLAY: 'wayland-0' }).kind,
      'xwayland',
    );
    assert.equal(detectDisplayServer({ XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0' }).kind, 'wayland');
    assert.equal(detectDisplayServer({ WAYLAND_DISPLAY: 'wayland-0' }).kind, 'wayland');
    assert.equal(detectDisplayServer({ WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':1' }).kind, 'xwayland');
    assert.equal(
      detectDisplayServer({ XDG_SESSION_TYPE: 'tty', WAYLAND_DISPLAY: 'w', DISPLAY: ':1' }).kind,
      'xwayland',
    );
    assert.equal(detectDisplayServer({ DISPLAY: ':7' }).kind, 'x11');
    assert.equal(detectDisplayServer({ DISPLAY: ':7' }).display, ':7');
    assert.equal(detectDisplayServer({ DISPLAY: '  ' }).kind, 'none');
    assert.equal(detectDisplayServer({}).kind, 'none');
    assert.match(detectDisplayServer({ WAYLAND_DISPLAY: 'wayland-0' }).reason, /without XWayland/);
  });

  it('serves X11 and Wayland sessions but not headless ones', () => {
    assert.equal(x11PlatformFactory.id, 'x11');
    assert.equal(x11PlatformFactory.optIn, false);
    assert.equal(x11PlatformFactory.canServe({ env: { DISPLAY: ':1' } }), true);
    assert.equal(x11PlatformFactory.canServe({ env: { WAYLAND_DISPLAY: 'wayland-0' } }), true);
    assert.equal(x11PlatformFactory.canServe({ env: {} }), false);
  });

  it('on Wayland without XWayland lists every device as unavailable, with the reason', async () => {
    const bundle = await createX11Platform({ env: { XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0' } });
    assert.equal(bundle.pointer, undefined);
    assert.equal(bundle.keyboard, undefined);
    assert.equal(bundle.screenshot, undefined);
    assert.deepEqual(
      bundle.unavailable.map((u) => u.device),
      [
        'pointer',
        'keyboard',
        'screenshot',
        'highlight',
        'windowManager',
        'desktopInfo',
        'pointerCapture',
        'inputRecorder',
      ],
    );
    for (const entry of bundle.unavailable) assert.match(entry.reason, /Wayland without XWayland.*needs an X server/);
    await bundle.shutdown();
  });

  it('fails clearly when the display cannot be opened', async () => {
    await assert.rejects(createX11Platform({ env: { DISPLAY: ':4711' } }), (error: unknown) => {
      assert.ok(error instanceof InspectorError);
      assert.equal(error.code, 'provider-unavailable');
      assert.match(error.message, /cannot open X display :4711/);
      return true;
    });
  });

  it('is linked in by main/backends/linux.ts and selected for an X11 session', () => {
    assert.ok(listPlatformFactories().some((f) => f.id === 'x11'));
    assert.equal(selectPlatformFactory({ env: { DISPLAY: ':1' } })?.id, 'x11');
    assert.equal(selectPlatformFactory({ env: {} }), undefined);
    assert.throws(() => selectPlatformFactory({ backend: 'x11', env: {} }), { code: 'provider-unavailable' });
  });

  it('leaves this process and PLATYNUI_EXCLUDE_PIDS out of picking', () => {
    assert.deepEqual([...ownProcessIds({})], [process.pid]);
    assert.deepEqual([...ownProcessIds({ PLATYNUI_EXCLUDE_PIDS: '12, 34,x,-5' })], [process.pid, 12, 34]);
  });

  it('names a missing native library and its package', () => {
    assert.throws(
      () => loadLibrary('libNoSuchThing.so.9', 'libnosuchthing9', 'testing'),
      (error: unknown) => {
        assert.ok(error instanceof InspectorError);
        assert.equal(error.code, 'provider-unavailable');
        assert.match(error.message, /libNoSuchThing\.so\.9 is needed for testing.*install the libnosuchthing9 package/);
        return true;
      },
    );
  });
});

describe('X11 key names', () => {
  it('names recorded keysyms as the keyboard sequence syntax does, and gives their characters back', () => {
    assert.equal(keyNameOfKeysymName('Return'), 'Enter');
    assert.equal(keyNameOfKeysymName('Prior'), 'PageUp');
    assert.equal(keyNameOfKeysymName('KP_Enter'), 'NumPadEnter');
    assert.equal(keyNameOfKeysymName('XF86Calculator'), undefined);
    for (const char of ['a', 'Z', '~', 'é', '€', '😀']) assert.equal(keysymCharacter(characterKeysym(char)), char);
    assert.equal(keysymCharacter(0xff0d), undefined); // Return types no character of its own
  });

  it('maps cross-platform names case-insensitively to keysyms', () => {
    assert.deepEqual(lookupKeyName('enter'), { name: 'Enter', keysym: 'Return' });
    assert.deepEqual(lookupKeyName('ESC'), { name: 'Escape', keysym: 'Escape' });
    assert.deepEqual(lookupKeyName('ctrl'), { name: 'Ctrl', keysym: 'Control_L' });
    assert.deepEqual(lookupKeyName('PgDn'), { name: 'PageDown', keysym: 'Next' });
    assert.deepEqual(lookupKeyName('super'), { name: 'Super', keysym: 'Super_L' });
    assert.deepEqual(lookupKeyName('meta'), { name: 'Super', keysym: 'Super_L' });
    assert.deepEqual(lookupKeyName('f24'), { name: 'F24', keysym: 'F24' });
    assert.deepEqual(lookupKeyName('numpad7'), { name: 'NumPad7', keysym: 'KP_7' });
    assert.equal(lookupKeyName('nonsense'), undefined);
    const names = knownX11KeyNames();
    for (const name of ['Enter', 'Escape', 'Shift', 'Ctrl', 'Alt', 'AltGr', 'Super', 'F1', 'PLUS', 'LT', 'GT']) {
      assert.ok(names.includes(name), name);
    }
  });

  it('turns characters into keysyms: Latin-1 directly, the rest of Unicode offset', () => {
    assert.equal(characterKeysym('a'), 0x61);
    assert.equal(characterKeysym('~'), 0x7e);
    assert.equal(characterKeysym('ü'), 0xfc);
    assert.equal(characterKeysym('€'), 0x010020ac);
    assert.equal(characterKeysym('😀'), 0x0101f600);
    assert.equal(characterKeysym('\n'), 0xff0d);
    assert.equal(characterKeysym('\t'), 0xff09);
  });
});

describe('X11 geometry helpers', () => {
  const desktop = { x: 0, y: 0, width: 1000, height: 800 };

  it('intersects rectangles on whole pixels', () => {
    assert.deepEqual(intersectRect({ x: -5, y: 10, width: 20, height: 20 }, desktop), {
      x: 0,
      y: 10,
      width: 15,
      height: 20,
    });
    assert.deepEqual(intersectRect({ x: 0.5, y: 0.5, width: 1, height: 1 }, desktop), {
      x: 0,
      y: 0,
      width: 2,
      height: 2,
    });
    assert.equal(intersectRect({ x: 1000, y: 0, width: 5, height: 5 }, desktop), undefined);
  });

  it('frames a rectangle with four bars just outside it', () => {
    const bars = frameBars({ x: 100, y: 100, width: 50, height: 20 }, desktop, 3);
    assert.deepEqual(bars, [
      { x: 97, y: 97, width: 56, height: 3 },
      { x: 97, y: 120, width: 56, height: 3 },
      { x: 97, y: 100, width: 3, height: 20 },
      { x: 150, y: 100, width: 3, height: 20 },
    ]);
  });

  it('clamps the frame to the desktop and drops rectangles outside it', () => {
    const bars = frameBars({ x: -50, y: -50, width: 2000, height: 2000 }, desktop, 3);
    assert.deepEqual(bars[0], { x: 0, y: 0, width: 1000, height: 3 });
    assert.deepEqual(bars[3], { x: 997, y: 3, width: 3, height: 794 });
    assert.deepEqual(frameBars({ x: 2000, y: 0, width: 10, height: 10 }, desktop), []);
    assert.deepEqual(frameBars({ x: 10, y: 10, width: 1, height: 1 }, desktop, 3).length, 4);
  });

  it('unites monitor rectangles and reads the scale from Xft.dpi', () => {
    assert.deepEqual(
      unionRects([
        { x: 0, y: 0, width: 1920, height: 1080 },
        { x: 1920, y: -200, width: 1280, height: 1024 },
      ]),
      { x: 0, y: -200, width: 3200, height: 1280 },
    );
    assert.equal(scaleFromResources('Xft.antialias:\t1\nXft.dpi:\t144\n'), 1.5);
    assert.equal(scaleFromResources(null), 1);
    assert.equal(scaleFromResources('Xft.dpi: nonsense'), 1);
  });

  it('converts X images: other pixel layouts to Bgra8, padded 32-bit BGRX rows to Rgba8', () => {
    // Two RGB565 pixels, little-endian: pure red and pure blue.
    const data = new Uint8Array([0x00, 0xf8, 0x1f, 0x00]);
    const shot = toScreenshot(
      {
        width: 2,
        height: 1,
        data: null,
        byte_order: 0,
        depth: 16,
        bytes_per_line: 4,
        bits_per_pixel: 16,
        red_mask: 0xf800,
        green_mask: 0x07e0,
        blue_mask: 0x001f,
      },
      data,
    );
    assert.equal(shot.format, 'Bgra8');
    assert.deepEqual([...shot.pixels], [0, 0, 255, 255, 255, 0, 0, 255]);
    // 32-bit BGRX with padding at the end of each row.
    const padded = new Uint8Array([1, 2, 3, 0, 9, 9, 9, 9, 4, 5, 6, 0, 9, 9, 9, 9]);
    const rows = toScreenshot(
      {
        width: 1,
        height: 2,
        data: null,
        byte_order: 0,
        depth: 24,
        bytes_per_line: 8,
        bits_per_pixel: 32,
        red_mask: 0xff0000,
        green_mask: 0xff00,
        blue_mask: 0xff,
      },
      padded,
    );
    assert.equal(rows.format, 'Rgba8');
    assert.deepEqual([...rows.pixels], [3, 2, 1, 255, 6, 5, 4, 255]);
  });
});
