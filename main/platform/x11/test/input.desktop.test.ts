import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { KeyboardController } from '../../../runtime/input/keyboard.js';
import { PointerController } from '../../../runtime/input/pointer.js';
import { centerOf, origins } from '../../../runtime/input/pointer-motion.js';
import type { PlatformBundle } from '../../../core/platform.js';
import { createX11Platform } from '../factory.js';
import { ProbeApp, runTool, useDesktop, type TestDesktop } from './support/desktop.js';
import { serverKeymap } from './support/x-state.js';

describe('X11 pointer and keyboard (desktop)', () => {
  let desktop: TestDesktop;
  let platform: PlatformBundle;
  let probe: ProbeApp;
  let pointer: PointerController;
  let keyboard: KeyboardController;
  let keymapBefore: number[];
  /** Waits until the entry holds `expected` (an entry that never changed holds ''). */
  const textIs = async (expected: string, timeoutMs = 3000) => {
    const deadline = Date.now() + timeoutMs;
    while ((probe.last('text')?.text ?? '') !== expected) {
      if (Date.now() > deadline)
        assert.fail(`entry holds ${JSON.stringify(probe.last('text')?.text)}, not ${JSON.stringify(expected)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return expected;
  };

  before(async () => {
    desktop = await useDesktop();
    platform = await createX11Platform({ env: desktop.env });
    probe = await ProbeApp.start(desktop.env, 'Input probe', 150, 120);
    pointer = new PointerController(platform.pointer!);
    keyboard = new KeyboardController(platform.keyboard!);
    keymapBefore = serverKeymap(desktop.display);
    const window = await platform.windowManager!.resolveWindow({ processId: probe.pid });
    await platform.windowManager!.activate(window!);
  });

  after(async () => {
    await probe?.stop();
    await platform?.shutdown();
    await desktop?.stop();
  });

  it('moves the pointer where the X server reports it', async () => {
    for (const motion of ['direct', 'linear', 'bezier', 'overshoot', 'jitter'] as const) {
      await pointer.moveTo({ x: 400 + motion.length * 10, y: 300 }, { motion });
      const reported = runTool('xdotool', ['getmouselocation'], desktop.env).toString();
      assert.match(reported, new RegExp(`x:${400 + motion.length * 10} y:300 `), motion);
    }
    assert.deepEqual(await platform.pointer!.position(), { x: 460, y: 300 });
  });

  it('a click toggles a real check box, and again', async () => {
    const check = probe.ready.check!;
    const start = probe.last('check')?.active ?? false;
    await pointer.click({ x: 10, y: check.height / 2 }, 'left', { origin: origins.bounds(check) });
    await probe.waitForLast('check', (e) => e.active === !start);
    await pointer.click(centerOf(check));
    await probe.waitForLast('check', (e) => e.active === start);
  });

  it('typed text lands in a real text field, shifted characters included', async () => {
    await pointer.click(centerOf(probe.ready.entry!));
    await keyboard.type('<Ctrl+a><Delete>');
    await keyboard.type('Hello, World! 42 \\<\\>?_+{}|~"');
    await textIs('Hello, World! 42 <>?_+{}|~"');
  });

  it('shortcuts edit the field: select all and delete, then escapes and aliases', async () => {
    await keyboard.type('<Ctrl+a><Delete>');
    await textIs('');
    await keyboard.type('a\\<b\\>c\\\\d\\x41\\u0042<PLUS><MINUS><LT><GT>');
    await textIs('a<b>c\\dAB+-<>');
    await keyboard.type('<Home><Shift+End><BackSpace>x<Left>y');
    await textIs('yx');
  });

  it('types characters missing from the layout through a spare keycode and restores the keymap', async () => {
    await keyboard.type('<Ctrl+a><Delete>');
    await textIs('');
    const text = 'Grüße €5 — ñ Ω';
    await keyboard.type(text);
    await textIs(text, 5000);
    assert.deepEqual(serverKeymap(desktop.display), keymapBefore, 'spare keycodes are empty again');
  });

  it('press and release hold Shift across separate calls', async () => {
    await keyboard.type('<Ctrl+a><Delete>');
    await textIs('');
    await keyboard.press('<Shift>');
    await keyboard.type('abc');
    await keyboard.release('<Shift>');
    await keyboard.type('d');
    await textIs('ABCd');
  });

  it('a double click selects a word in the field', async () => {
    await keyboard.type('<Ctrl+a><Delete>');
    await keyboard.type('alpha beta');
    await textIs('alpha beta');
    const entry = (await probe.bounds()).entry!;
    // "alpha" starts at the entry's left padding; a point a little inside it is on the first word.
    await pointer.multiClick({ x: entry.x + 16, y: entry.y + entry.height / 2 }, 'left', 2);
    await keyboard.type('omega');
    await textIs('omega beta');
  });

  it('rejects an unknown key without typing anything', async () => {
    const count = probe.events.length;
    await assert.rejects(keyboard.type('abc<Ctrl+NoSuchKey>'), /unsupported key "NoSuchKey" at column 10/);
    assert.equal(probe.events.length, count);
  });
});
