import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InspectorError } from '../../../../shared/model/errors.js';
import { KeyboardController, defaultKeyboardProfile } from '../keyboard.js';
import { PointerController } from '../pointer.js';
import { abortableClock } from '../timing.js';
import { FakeClock, RecordingKeyboard, RecordingPointer } from './fakes.js';

const cancelled = () => new InspectorError('cancelled', 'interrupted by SIGINT');

describe('abortableClock', () => {
  it('sleeps like the real clock until aborted, then every sleep fails with the reason at once', async () => {
    const controller = new AbortController();
    const clock = abortableClock(controller.signal);
    const start = performance.now();
    await clock.sleep(20);
    assert.ok(performance.now() - start >= 15);
    const long = clock.sleep(60_000);
    setTimeout(() => controller.abort(cancelled()), 10);
    await assert.rejects(long, /interrupted by SIGINT/);
    assert.ok(performance.now() - start < 5000, 'the long sleep ended at the abort');
    await assert.rejects(clock.sleep(0), (e: unknown) => e instanceof InspectorError && e.code === 'cancelled');
  });

  it('an aborted typing releases the keys it holds, newest first, and ends the input', async () => {
    const controller = new AbortController();
    const device = new RecordingKeyboard(new FakeClock());
    const keyboard = new KeyboardController(
      device,
      { ...defaultKeyboardProfile, chordPressDelayMs: 60_000 },
      abortableClock(controller.signal),
    );
    const typing = keyboard.type('<Ctrl+Shift+a>b');
    setTimeout(() => controller.abort(cancelled()), 20);
    await assert.rejects(typing, /interrupted/);
    assert.equal(device.trace(), '+ctrl -ctrl');
    assert.equal(device.events.at(-1)!.state, 'end');
  });

  it('an aborted drag lets go of the button', async () => {
    const controller = new AbortController();
    const device = new RecordingPointer(new FakeClock());
    const pointer = new PointerController(device, { clock: abortableClock(controller.signal) });
    // Interrupted while the button is down (during the hold before the motion).
    const press = device.press.bind(device);
    device.press = async (button) => {
      await press(button);
      setTimeout(() => controller.abort(cancelled()), 5);
    };
    const drag = pointer.drag({ x: 1, y: 1 }, { x: 500, y: 500 }, 'left', {
      motion: 'linear',
      dragHoldDelayMs: 60_000,
    });
    await assert.rejects(drag, /interrupted/);
    assert.equal(device.buttons(), '+left -left');
  });
});
