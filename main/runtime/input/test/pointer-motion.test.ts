import { seededRandom } from '../../../../shared/random.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  accelerate,
  centerOf,
  defaultPointerProfile,
  moveDurationMs,
  origins,
  planMotion,
  pointerOverrides,
  PointerProfiles,
  resolvePoint,
  type MotionStep,
  type PointerProfile,
} from '../pointer-motion.js';

const profile = (changes: Partial<PointerProfile>): PointerProfile => ({ ...defaultPointerProfile, ...changes });
const from = { x: 0, y: 0 };
const to = { x: 400, y: 0 };

/** Distance of a point from the straight line y = 0 (the test moves run along the x axis). */
const offLine = (steps: MotionStep[]) => Math.max(...steps.map((s) => Math.abs(s.point.y)));
const gaps = (steps: MotionStep[]) => {
  const xs = [from.x, ...steps.map((s) => s.point.x)];
  return xs.slice(1).map((x, i) => x - xs[i]!);
};

describe('pointer motion engine', () => {
  it('direct mode jumps in one step', () => {
    assert.deepEqual(planMotion(from, to, profile({ motion: 'direct' })), [{ point: to, atMs: 0 }]);
  });

  it('a move shorter than a pixel is a single step in any mode', () => {
    assert.equal(planMotion(from, { x: 0.5, y: 0 }, profile({ motion: 'bezier' })).length, 1);
  });

  it('linear mode stays on the line, moves forward and ends exactly on the target', () => {
    const steps = planMotion(from, to, profile({ motion: 'linear', acceleration: 'constant' }));
    assert.ok(steps.length > 5);
    assert.deepEqual(steps.at(-1)!.point, to);
    assert.equal(offLine(steps), 0);
    for (const gap of gaps(steps)) assert.ok(gap > 0);
  });

  it('spreads the steps over the duration given by speed and limits', () => {
    const p = profile({ motion: 'linear', speedPxPerSecond: 1000, maxMoveDurationMs: 10000, stepIntervalMs: 10 });
    assert.equal(moveDurationMs(from, to, p), 400);
    const steps = planMotion(from, to, p);
    assert.equal(steps.length, 40);
    assert.equal(steps.at(-1)!.atMs, 400);
    assert.equal(steps[0]!.atMs, 10);
    assert.equal(moveDurationMs(from, to, profile({ speedPxPerSecond: 10, maxMoveDurationMs: 250 })), 250);
    assert.equal(moveDurationMs(from, { x: 1, y: 0 }, profile({ minMoveDurationMs: 50 })), 50);
  });

  it('acceleration profiles shape the spacing', () => {
    const base = { motion: 'linear' as const, maxMoveDurationMs: 400, speedPxPerSecond: 1000, stepIntervalMs: 20 };
    const constant = gaps(planMotion(from, to, profile({ ...base, acceleration: 'constant' })));
    const easeIn = gaps(planMotion(from, to, profile({ ...base, acceleration: 'ease-in' })));
    const easeOut = gaps(planMotion(from, to, profile({ ...base, acceleration: 'ease-out' })));
    const smooth = gaps(planMotion(from, to, profile({ ...base, acceleration: 'smooth' })));
    for (const gap of constant) assert.ok(Math.abs(gap - 20) < 1e-9);
    assert.ok(easeIn[0]! < easeIn.at(-1)!, 'slow to fast');
    assert.ok(easeOut[0]! > easeOut.at(-1)!, 'fast to slow');
    const middle = smooth[Math.floor(smooth.length / 2)]!;
    assert.ok(smooth[0]! < middle && smooth.at(-1)! < middle, 'S-curve: slow, fast, slow');
    assert.equal(accelerate('smooth', 0), 0);
    assert.equal(accelerate('smooth', 1), 1);
    assert.equal(accelerate('ease-in', 0.5), 0.25);
    assert.equal(accelerate('ease-out', 0.5), 0.75);
  });

  it('bezier mode curves away from the line and lands on the target', () => {
    const steps = planMotion(from, to, profile({ motion: 'bezier', curvature: 0.25 }), seededRandom(1));
    assert.ok(offLine(steps) > 20, `curved by ${offLine(steps)} px`);
    assert.ok(offLine(steps) < 400 * 0.25 + 1);
    assert.deepEqual(steps.at(-1)!.point, to);
  });

  it('overshoot mode sails past the target and settles back onto it', () => {
    const steps = planMotion(from, to, profile({ motion: 'overshoot', overshootRatio: 0.05, overshootMaxPx: 30 }));
    const furthest = Math.max(...steps.map((s) => s.point.x));
    assert.ok(furthest > 400 && furthest <= 420 + 1e-9, `furthest ${furthest}`);
    assert.deepEqual(steps.at(-1)!.point, to);
    assert.equal(offLine(steps), 0);
  });

  it('overshoot is capped in pixels', () => {
    const steps = planMotion(
      from,
      { x: 4000, y: 0 },
      profile({ motion: 'overshoot', overshootRatio: 0.5, overshootMaxPx: 10 }),
    );
    assert.ok(Math.max(...steps.map((s) => s.point.x)) <= 4010 + 1e-9);
  });

  it('jitter mode wobbles within its amplitude and lands exactly', () => {
    const steps = planMotion(from, to, profile({ motion: 'jitter', jitterPx: 3 }), seededRandom(7));
    assert.ok(offLine(steps) > 0.1);
    assert.ok(offLine(steps) <= 3 + 1e-9);
    assert.deepEqual(steps.at(-1)!.point, to);
  });

  it('is deterministic for a seeded random source', () => {
    const a = planMotion(from, to, profile({ motion: 'jitter' }), seededRandom(42));
    const b = planMotion(from, to, profile({ motion: 'jitter' }), seededRandom(42));
    assert.deepEqual(a, b);
  });

  it('rejects unknown modes and bad speeds with a clear error', () => {
    assert.throws(
      () => planMotion(from, to, profile({ motion: 'teleport' as never })),
      /unknown motion mode "teleport"/,
    );
    assert.throws(() => planMotion(from, to, profile({ acceleration: 'warp' as never })), /unknown acceleration/);
    assert.throws(() => planMotion(from, to, profile({ speedPxPerSecond: 0 })), /speed must be positive/);
  });

  it('resolves points against the desktop, a rectangle or an anchor', () => {
    const p = { x: 5, y: 6 };
    assert.deepEqual(resolvePoint(p, undefined), p);
    assert.deepEqual(resolvePoint(p, origins.desktop()), p);
    assert.deepEqual(resolvePoint(p, origins.bounds({ x: 100, y: 200, width: 50, height: 20 })), { x: 105, y: 206 });
    assert.deepEqual(resolvePoint(p, origins.absolute({ x: -10, y: 10 })), { x: -5, y: 16 });
    assert.deepEqual(centerOf({ x: 10, y: 20, width: 30, height: 41 }), { x: 25, y: 40.5 });
  });

  it('builds overrides with a small builder and keeps the default preset intact', () => {
    const overrides = pointerOverrides()
      .motion('bezier')
      .acceleration('ease-out')
      .speed(100)
      .verifyMove(false)
      .origin(origins.absolute({ x: 1, y: 2 }))
      .build();
    assert.deepEqual(overrides, {
      motion: 'bezier',
      acceleration: 'ease-out',
      speedPxPerSecond: 100,
      verifyMove: false,
      origin: { kind: 'absolute', point: { x: 1, y: 2 } },
    });
    const preset = PointerProfiles.namedDefault();
    preset.motion = 'direct';
    assert.equal(PointerProfiles.namedDefault().motion, defaultPointerProfile.motion);
  });
});
