import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InspectorError } from '../../../../shared/model/errors.js';
import { PointerController } from '../pointer.js';
import { defaultPointerProfile, origins, type PointerProfile } from '../pointer-motion.js';
import { FakeClock, RecordingPointer } from './fakes.js';

function setup(changes: Partial<PointerProfile> = {}) {
  const clock = new FakeClock();
  const device = new RecordingPointer(clock);
  const pointer = new PointerController(device, { profile: { ...defaultPointerProfile, ...changes }, clock });
  return { clock, device, pointer };
}

describe('PointerController', () => {
  it('moves along the planned path in time and ends on the target', async () => {
    const { device, pointer, clock } = setup({ motion: 'linear', speedPxPerSecond: 1000, maxMoveDurationMs: 1000 });
    const reached = await pointer.moveTo({ x: 100, y: 50 });
    assert.deepEqual(reached, { x: 100, y: 50 });
    const moves = device.moves();
    assert.ok(moves.length > 3);
    assert.deepEqual(moves.at(-1), { x: 100, y: 50 });
    const last = device.events.filter((e) => e.kind === 'move').at(-1)!;
    assert.ok(Math.abs(last.at - (Math.hypot(100, 50) / 1000) * 1000) < 1, `last step at ${last.at}`);
    assert.ok(clock.time >= last.at + defaultPointerProfile.afterMoveDelayMs);
  });

  it('moves directly under the direct profile', async () => {
    const { device, pointer } = setup({ motion: 'direct' });
    await pointer.moveTo({ x: 300, y: 300 });
    assert.deepEqual(device.moves(), [{ x: 300, y: 300 }]);
  });

  it('measures a point from the origin in the overrides', async () => {
    const { device, pointer } = setup({ motion: 'direct' });
    await pointer.moveTo({ x: 5, y: 5 }, { origin: origins.bounds({ x: 100, y: 200, width: 40, height: 20 }) });
    assert.deepEqual(device.current, { x: 105, y: 205 });
    await pointer.click({ x: 1, y: -1 }, 'left', { origin: origins.absolute({ x: 10, y: 10 }) });
    assert.deepEqual(device.current, { x: 11, y: 9 });
  });

  it('clicks: moves, presses, waits, releases', async () => {
    const { device, pointer } = setup({ motion: 'direct', pressReleaseDelayMs: 30 });
    await pointer.click({ x: 10, y: 10 });
    assert.equal(device.buttons(), '+left -left');
    const press = device.events.find((e) => e.kind === 'press')!;
    const release = device.events.find((e) => e.kind === 'release')!;
    assert.equal(release.at - press.at, 30);
  });

  it('clicks in place without a point', async () => {
    const { device, pointer } = setup();
    await pointer.click(undefined, 'right');
    assert.equal(device.moves().length, 0);
    assert.equal(device.buttons(), '+right -right');
  });

  it('multi-clicks within the double-click time', async () => {
    const { device, pointer } = setup({ motion: 'direct', multiClickDelayMs: 1000, pressReleaseDelayMs: 500 });
    await pointer.multiClick({ x: 1, y: 1 }, 'left', 3);
    assert.equal(device.buttons(), '+left -left +left -left +left -left');
    const presses = device.events.filter((e) => e.kind === 'press').map((e) => e.at);
    // 400 ms double-click time: press-release 100 ms, gap 100 ms, so each click starts 200 ms after the last.
    assert.deepEqual(
      presses.map((t) => t - presses[0]!),
      [0, 200, 400],
    );
    await assert.rejects(pointer.multiClick(undefined, 'left', 0), /positive integer/);
  });

  it('press and release hold a button across moves', async () => {
    const { device, pointer } = setup({ motion: 'direct' });
    await pointer.press({ x: 5, y: 5 }, 'middle');
    await pointer.moveTo({ x: 50, y: 5 });
    await pointer.release('middle');
    assert.deepEqual(
      device.events.map((e) => e.kind),
      ['move', 'press', 'move', 'release'],
    );
  });

  it('drags with motion while the button is down, even under the direct profile', async () => {
    const { device, pointer } = setup({ motion: 'direct', dragHoldDelayMs: 50 });
    await pointer.drag({ x: 0, y: 0 }, { x: 200, y: 0 });
    const kinds = device.events.map((e) => e.kind);
    const pressAt = kinds.indexOf('press');
    const releaseAt = kinds.indexOf('release');
    assert.ok(releaseAt - pressAt > 3, 'several moves between press and release');
    assert.deepEqual(device.current, { x: 200, y: 0 });
    const release = device.events[releaseAt]!;
    const lastMove = device.events[releaseAt - 1]!;
    assert.ok(release.at - lastMove.at >= 50, 'holds still before releasing');
  });

  it('releases the button when a drag fails', async () => {
    const { device, pointer } = setup({ motion: 'direct' });
    await assert.rejects(pointer.drag({ x: 0, y: 0 }, { x: Number.NaN, y: 0 }), /finite/);
    assert.equal(device.buttons(), '+left -left');
  });

  it('scrolls one wheel step at a time in both directions', async () => {
    const { device, pointer } = setup({ scrollStepDelayMs: 10 });
    await pointer.scroll({ y: 3, x: -1 });
    const scrolls = device.events.flatMap((e) => (e.kind === 'scroll' ? [[e.dx, e.dy, e.at]] : []));
    assert.deepEqual(scrolls, [
      [-1, 1, 0],
      [0, 1, 10],
      [0, 1, 20],
    ]);
  });

  it('verifies the pointer reached its target, corrects once, then fails clearly', async () => {
    const { device, pointer } = setup({ motion: 'direct', verifyMove: true });
    device.stuckAt = { x: 1, y: 1 };
    await assert.rejects(pointer.moveTo({ x: 100, y: 100 }), (error: unknown) => {
      assert.ok(error instanceof InspectorError);
      assert.equal(error.code, 'action-failed');
      assert.match(error.message, /did not reach \(100, 100\); it is at \(1, 1\)/);
      return true;
    });
    assert.equal(device.moves().length, 2, 'one correction');
    const { device: free, pointer: unchecked } = setup({ motion: 'direct', verifyMove: false });
    free.stuckAt = { x: 1, y: 1 };
    await unchecked.moveTo({ x: 100, y: 100 });
  });
});
