import { InspectorError } from '../../../shared/model/errors.js';
import type { Point, Rect } from '../../../shared/model/values.js';

/**
 * The pointer motion engine (PlatynUI §8): how the pointer travels to a target. The path (direct, linear, bezier,
 * overshoot, jitter) and the acceleration along it (constant, slow→fast, fast→slow, S-curve) are independent; a
 * PointerProfile bundles them with the timing, PointerOverrides changes a single call, and an origin says what a
 * coordinate is measured from.
 */

export type MotionMode = 'direct' | 'linear' | 'bezier' | 'overshoot' | 'jitter';
export const motionModes: readonly MotionMode[] = ['direct', 'linear', 'bezier', 'overshoot', 'jitter'];

/** constant; slow→fast (ease-in); fast→slow (ease-out); smooth S-curve (ease-in-out). */
export type AccelerationProfile = 'constant' | 'ease-in' | 'ease-out' | 'smooth';
export const accelerationProfiles: readonly AccelerationProfile[] = ['constant', 'ease-in', 'ease-out', 'smooth'];

export type PointerButtonName = 'left' | 'middle' | 'right';

export interface PointerProfile {
  motion: MotionMode;
  acceleration: AccelerationProfile;
  /** Travel speed in desktop pixels per second; the duration follows from the distance. */
  speedPxPerSecond: number;
  minMoveDurationMs: number;
  maxMoveDurationMs: number;
  /** Time between two intermediate pointer positions. */
  stepIntervalMs: number;
  /** Bezier: control points leave the straight line by this fraction of the distance. */
  curvature: number;
  /** Overshoot: how far past the target, as a fraction of the distance (capped by overshootMaxPx). */
  overshootRatio: number;
  overshootMaxPx: number;
  /** Jitter: largest sideways wobble in pixels. */
  jitterPx: number;
  /** Delay after a move has settled. */
  afterMoveDelayMs: number;
  /** Between a button press and its release. */
  pressReleaseDelayMs: number;
  /** After a click, before the next action (or click) begins. */
  afterClickDelayMs: number;
  /** Between the clicks of a multi-click; always kept below the platform's double-click time. */
  multiClickDelayMs: number;
  /** Between two wheel steps. */
  scrollStepDelayMs: number;
  /** Drag: pause after pressing and before releasing, so applications recognise the drag. */
  dragHoldDelayMs: number;
  /** Read the position back after a move and fail if it is further than `verifyTolerancePx` from the target. */
  verifyMove: boolean;
  verifyTolerancePx: number;
}

export type PointOrigin = { kind: 'desktop' } | { kind: 'bounds'; rect: Rect } | { kind: 'absolute'; point: Point };

export type PointerOverrides = Partial<PointerProfile> & { origin?: PointOrigin };

export const defaultPointerProfile: Readonly<PointerProfile> = Object.freeze({
  motion: 'linear',
  acceleration: 'smooth',
  speedPxPerSecond: 4000,
  minMoveDurationMs: 0,
  maxMoveDurationMs: 250,
  stepIntervalMs: 8,
  curvature: 0.2,
  overshootRatio: 0.08,
  overshootMaxPx: 24,
  jitterPx: 2,
  afterMoveDelayMs: 20,
  pressReleaseDelayMs: 30,
  afterClickDelayMs: 60,
  multiClickDelayMs: 70,
  scrollStepDelayMs: 15,
  dragHoldDelayMs: 60,
  verifyMove: true,
  verifyTolerancePx: 1,
});

export const PointerProfiles = {
  /** The one built-in preset. */
  namedDefault(): PointerProfile {
    return { ...defaultPointerProfile };
  },
};

/** Builder for per-call overrides: `pointerOverrides().motion('bezier').origin(bounds(rect)).build()`. */
export class PointerOverridesBuilder {
  private readonly values: PointerOverrides = {};

  set<K extends keyof PointerProfile>(key: K, value: PointerProfile[K]): this {
    this.values[key] = value as PointerOverrides[K];
    return this;
  }
  motion(mode: MotionMode): this {
    return this.set('motion', mode);
  }
  acceleration(profile: AccelerationProfile): this {
    return this.set('acceleration', profile);
  }
  speed(pxPerSecond: number): this {
    return this.set('speedPxPerSecond', pxPerSecond);
  }
  maxDuration(ms: number): this {
    return this.set('maxMoveDurationMs', ms);
  }
  afterMoveDelay(ms: number): this {
    return this.set('afterMoveDelayMs', ms);
  }
  pressReleaseDelay(ms: number): this {
    return this.set('pressReleaseDelayMs', ms);
  }
  multiClickDelay(ms: number): this {
    return this.set('multiClickDelayMs', ms);
  }
  verifyMove(verify: boolean): this {
    return this.set('verifyMove', verify);
  }
  origin(origin: PointOrigin): this {
    this.values.origin = origin;
    return this;
  }
  build(): PointerOverrides {
    return { ...this.values };
  }
}

export function pointerOverrides(): PointerOverridesBuilder {
  return new PointerOverridesBuilder();
}

export const origins = {
  desktop: (): PointOrigin => ({ kind: 'desktop' }),
  bounds: (rect: Rect): PointOrigin => ({ kind: 'bounds', rect }),
  absolute: (point: Point): PointOrigin => ({ kind: 'absolute', point }),
};

/** Turns a point measured from an origin into desktop coordinates. */
export function resolvePoint(point: Point, origin: PointOrigin | undefined): Point {
  if (!origin || origin.kind === 'desktop') return { x: point.x, y: point.y };
  if (origin.kind === 'bounds') return { x: origin.rect.x + point.x, y: origin.rect.y + point.y };
  return { x: origin.point.x + point.x, y: origin.point.y + point.y };
}

/** The centre of a rectangle: where a click on an element lands when no point is given. */
export function centerOf(rect: Rect): Point {
  return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
}

/** Shapes progress along the path: t in [0,1] to travelled fraction in [0,1]. */
export function accelerate(profile: AccelerationProfile, t: number): number {
  const c = Math.min(1, Math.max(0, t));
  switch (profile) {
    case 'constant':
      return c;
    case 'ease-in':
      return c * c;
    case 'ease-out':
      return 1 - (1 - c) * (1 - c);
    case 'smooth':
      return c * c * (3 - 2 * c);
  }
}

export interface MotionStep {
  point: Point;
  /** Time since the start of the move at which the pointer should be here. */
  atMs: number;
}

function checkProfile(profile: PointerProfile): void {
  if (!motionModes.includes(profile.motion)) {
    throw new InspectorError(
      'invalid-input',
      `unknown motion mode "${profile.motion}"; known: ${motionModes.join(', ')}`,
    );
  }
  if (!accelerationProfiles.includes(profile.acceleration)) {
    throw new InspectorError(
      'invalid-input',
      `unknown acceleration profile "${profile.acceleration}"; known: ${accelerationProfiles.join(', ')}`,
    );
  }
  if (!(profile.speedPxPerSecond > 0)) throw new InspectorError('invalid-input', 'pointer speed must be positive');
  if (!(profile.stepIntervalMs > 0))
    throw new InspectorError('invalid-input', 'pointer step interval must be positive');
}

export function moveDurationMs(from: Point, to: Point, profile: PointerProfile): number {
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  const raw = (distance / profile.speedPxPerSecond) * 1000;
  return Math.min(profile.maxMoveDurationMs, Math.max(profile.minMoveDurationMs, raw));
}

const lerp = (a: Point, b: Point, f: number): Point => ({ x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f });

function cubic(p0: Point, p1: Point, p2: Point, p3: Point, t: number): Point {
  const u = 1 - t;
  const a = u * u * u;
  const b = 3 * u * u * t;
  const c = 3 * u * t * t;
  const d = t * t * t;
  return { x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y };
}

/**
 * Plans the pointer positions of one move, ending exactly on the target. `direct` is a single step; the other modes
 * spread steps over the duration, their spacing shaped by the acceleration profile.
 */
export function planMotion(
  from: Point,
  to: Point,
  profile: PointerProfile,
  random: () => number = Math.random,
): MotionStep[] {
  checkProfile(profile);
  const target = { x: to.x, y: to.y };
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  if (profile.motion === 'direct' || distance < 1) return [{ point: target, atMs: 0 }];
  const duration = moveDurationMs(from, to, profile);
  const count = Math.max(1, Math.ceil(duration / profile.stepIntervalMs));
  const dir = { x: (to.x - from.x) / distance, y: (to.y - from.y) / distance };
  const normal = { x: -dir.y, y: dir.x };

  let path: (f: number) => Point;
  switch (profile.motion) {
    case 'linear':
      path = (f) => lerp(from, to, f);
      break;
    case 'bezier': {
      const side = random() < 0.5 ? -1 : 1;
      const bend = distance * profile.curvature * side;
      const c1 = {
        x: from.x + (to.x - from.x) / 3 + normal.x * bend,
        y: from.y + (to.y - from.y) / 3 + normal.y * bend,
      };
      const c2 = {
        x: from.x + ((to.x - from.x) * 2) / 3 + normal.x * bend * 0.6,
        y: from.y + ((to.y - from.y) * 2) / 3 + normal.y * bend * 0.6,
      };
      path = (f) => cubic(from, c1, c2, to, f);
      break;
    }
    case 'overshoot': {
      const past = Math.min(profile.overshootMaxPx, Math.max(1, distance * profile.overshootRatio));
      const beyond = { x: to.x + dir.x * past, y: to.y + dir.y * past };
      // Travel to a point past the target for most of the time, then settle back.
      path = (f) => (f <= 0.85 ? lerp(from, beyond, Math.min(1, f / 0.85)) : lerp(beyond, to, (f - 0.85) / 0.15));
      break;
    }
    case 'jitter': {
      const offsets = Array.from({ length: count + 1 }, () => (random() * 2 - 1) * profile.jitterPx);
      path = (f) => {
        const base = lerp(from, to, f);
        if (f >= 1) return base;
        // Fade the wobble out towards both ends so the move starts and lands cleanly.
        const envelope = Math.sin(Math.PI * f);
        const offset = (offsets[Math.round(f * count)] ?? 0) * envelope;
        return { x: base.x + normal.x * offset, y: base.y + normal.y * offset };
      };
      break;
    }
  }
  const steps: MotionStep[] = [];
  for (let i = 1; i <= count; i++) {
    const t = i / count;
    const f = i === count ? 1 : accelerate(profile.acceleration, t);
    steps.push({ point: i === count ? target : path(f), atMs: duration * t });
  }
  return steps;
}
