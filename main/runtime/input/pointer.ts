import { InspectorError } from '../../../shared/model/errors.js';
import type { Point } from '../../../shared/model/values.js';
import type { PointerButton, PointerDevice } from '../../core/platform.js';
import {
  defaultPointerProfile,
  planMotion,
  resolvePoint,
  type PointerOverrides,
  type PointerProfile,
} from './pointer-motion.js';
import { applyOverrides, realClock, type InputClock } from './timing.js';

/**
 * The runtime's pointer entry points (PlatynUI §8: pointer_move_to, pointer_click, pointer_multi_click,
 * pointer_press, pointer_release, pointer_drag, pointer_scroll) over a platform PointerDevice. Points are desktop
 * coordinates unless the overrides name another origin. A click without a point clicks where the pointer is.
 */

export interface PointerControllerOptions {
  profile?: PointerProfile;
  clock?: InputClock;
  random?: () => number;
}

export class PointerController {
  private readonly device: PointerDevice;
  private readonly profile: PointerProfile;
  private readonly clock: InputClock;
  private readonly random: () => number;
  private readonly held = new Set<PointerButton>();

  constructor(device: PointerDevice, options: PointerControllerOptions = {}) {
    this.device = device;
    this.profile = { ...(options.profile ?? defaultPointerProfile) };
    this.clock = options.clock ?? realClock;
    this.random = options.random ?? Math.random;
  }

  position(): Promise<Point> {
    return this.device.position();
  }

  /** Moves along the profile's path and returns the desktop point reached. */
  async moveTo(point: Point, overrides?: PointerOverrides): Promise<Point> {
    const profile = applyOverrides(this.profile, overrides);
    const target = resolvePoint(point, overrides?.origin);
    checkPoint(target);
    const from = await this.device.position();
    const start = this.clock.now();
    for (const step of planMotion(from, target, profile, this.random)) {
      const wait = start + step.atMs - this.clock.now();
      if (wait > 0.5) await this.clock.sleep(wait);
      await this.device.moveTo(step.point);
    }
    if (profile.verifyMove) await this.verify(target, profile);
    await this.clock.sleep(profile.afterMoveDelayMs);
    return target;
  }

  async click(point?: Point, button: PointerButton = 'left', overrides?: PointerOverrides): Promise<void> {
    await this.multiClick(point, button, 1, overrides);
  }

  /** `count` clicks close enough in time and space to count as one double (triple...) click. */
  async multiClick(
    point: Point | undefined,
    button: PointerButton = 'left',
    count = 2,
    overrides?: PointerOverrides,
  ): Promise<void> {
    if (!Number.isInteger(count) || count < 1) {
      throw new InspectorError('invalid-input', `click count must be a positive integer, not ${count}`);
    }
    const profile = applyOverrides(this.profile, overrides);
    if (point) await this.moveTo(point, overrides);
    // Keep the whole multi-click inside the platform's double-click time.
    const limit = this.device.doubleClickTimeMs();
    const pressRelease = Math.min(profile.pressReleaseDelayMs, Math.max(0, Math.floor(limit / 4)));
    const between = Math.min(profile.multiClickDelayMs, Math.max(0, Math.floor(limit / 2) - pressRelease));
    for (let i = 0; i < count; i++) {
      if (i > 0) await this.clock.sleep(between);
      await this.pressButton(button);
      await this.clock.sleep(pressRelease);
      await this.releaseButton(button);
    }
    await this.clock.sleep(profile.afterClickDelayMs);
  }

  async press(point: Point | undefined, button: PointerButton = 'left', overrides?: PointerOverrides): Promise<void> {
    if (point) await this.moveTo(point, overrides);
    await this.pressButton(button);
  }

  async release(button: PointerButton = 'left', overrides?: PointerOverrides): Promise<void> {
    const profile = applyOverrides(this.profile, overrides);
    await this.releaseButton(button);
    await this.clock.sleep(profile.afterClickDelayMs);
  }

  /** Presses at `from`, moves to `to` along the profile's path, releases there. Releases the button on failure. */
  async drag(from: Point, to: Point, button: PointerButton = 'left', overrides?: PointerOverrides): Promise<void> {
    const profile = applyOverrides(this.profile, overrides);
    await this.moveTo(from, overrides);
    await this.pressButton(button);
    try {
      await this.clock.sleep(profile.dragHoldDelayMs);
      // A drag always travels, even under the direct profile, so the application sees motion while pressed.
      const motion = profile.motion === 'direct' ? 'linear' : profile.motion;
      await this.moveTo(to, { ...overrides, motion, afterMoveDelayMs: profile.dragHoldDelayMs });
    } finally {
      await this.releaseButton(button);
    }
    await this.clock.sleep(profile.afterClickDelayMs);
  }

  /** Scrolls whole wheel steps (positive deltaY down, deltaX right), one step at a time, optionally at a point. */
  async scroll(delta: { x?: number; y?: number }, point?: Point, overrides?: PointerOverrides): Promise<void> {
    const profile = applyOverrides(this.profile, overrides);
    const dx = Math.trunc(delta.x ?? 0);
    const dy = Math.trunc(delta.y ?? 0);
    if (point) await this.moveTo(point, overrides);
    const steps = Math.max(Math.abs(dx), Math.abs(dy));
    for (let i = 0; i < steps; i++) {
      if (i > 0) await this.clock.sleep(profile.scrollStepDelayMs);
      await this.device.scroll(i < Math.abs(dx) ? Math.sign(dx) : 0, i < Math.abs(dy) ? Math.sign(dy) : 0);
    }
  }

  /** Releases every button this controller still holds (after an interrupted drag or press). */
  async releaseAll(): Promise<void> {
    for (const button of [...this.held]) await this.releaseButton(button);
  }

  private async pressButton(button: PointerButton): Promise<void> {
    await this.device.press(button);
    this.held.add(button);
  }

  private async releaseButton(button: PointerButton): Promise<void> {
    await this.device.release(button);
    this.held.delete(button);
  }

  private async verify(target: Point, profile: PointerProfile): Promise<void> {
    const near = (p: Point) => Math.hypot(p.x - target.x, p.y - target.y) <= profile.verifyTolerancePx + 0.5;
    let reached = await this.device.position();
    if (near(reached)) return;
    // One direct correction (another client may have moved the pointer), then give up.
    await this.device.moveTo(target);
    reached = await this.device.position();
    if (!near(reached)) {
      throw new InspectorError(
        'action-failed',
        `pointer did not reach (${fmt(target.x)}, ${fmt(target.y)}); it is at (${fmt(reached.x)}, ${fmt(reached.y)})`,
      );
    }
  }
}

const fmt = (n: number) => String(Math.round(n * 100) / 100);

function checkPoint(point: Point): void {
  if (!Number.isFinite(point.x) || !Number.isFinite(point.y)) {
    throw new InspectorError('invalid-input', `pointer target must be finite, not (${point.x}, ${point.y})`);
  }
}
