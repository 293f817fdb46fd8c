import type { ScreenshotDevice } from '../core/platform.js';

/** The platform's change watch ends this long after the last capture (the Screen panel was closed). */
export const IDLE_MS = 10_000;
/** Digests remembered with the change count at their capture (a few clients, a few scales each). */
const REMEMBERED = 32;

/**
 * Which captures are out of date, from the platform's "the screen changed" reports: a change count, and for each
 * recent digest the count when it was captured. A client that asks "has it changed since digest D?" waits only when
 * nothing changed since D was captured; a change during that capture counts as later. The platform's watch runs
 * while captures keep coming.
 */
export class ScreenChangeTracker {
  private changes = 0;
  private stopWatch: (() => void) | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly countAtCapture = new Map<string, number>();
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly device: ScreenshotDevice,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Starts (or keeps) the watch; the change count to remember for the capture about to be taken. */
  captureStarts(): number {
    this.keepWatching();
    return this.changes;
  }

  captured(digest: string, changesBefore: number): void {
    this.countAtCapture.delete(digest);
    this.countAtCapture.set(digest, changesBefore);
    if (this.countAtCapture.size > REMEMBERED) {
      this.countAtCapture.delete(this.countAtCapture.keys().next().value!);
    }
  }

  /** Resolves once the screen may differ from the capture named by `digest`, or after `timeoutMs`. */
  changeSince(digest: string, timeoutMs: number): Promise<void> {
    this.keepWatching();
    const before = this.countAtCapture.get(digest);
    if (before === undefined || before !== this.changes) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        this.keepWatching();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }

  private keepWatching(): void {
    if (!this.stopWatch) {
      // Counts from before the watch say nothing about what changed while nobody watched.
      this.countAtCapture.clear();
      this.stopWatch = this.device.watchChanges!(() => this.changed());
    }
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.idle(), this.idleMs);
    this.idleTimer.unref?.();
  }

  private changed(): void {
    this.changes++;
    for (const waiter of [...this.waiters]) waiter();
  }

  private idle(): void {
    this.idleTimer = undefined;
    if (this.waiters.size > 0) return this.keepWatching();
    this.stopWatch?.();
    this.stopWatch = undefined;
  }
}
