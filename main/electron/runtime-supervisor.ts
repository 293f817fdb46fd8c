import type { UtilityProcessLike } from './shell.js';

/**
 * Keeps the runtime's utility process running: when it dies (a crash, an out-of-memory kill), it is started again
 * after a short pause that doubles with each death close to the last, and given up on only when it keeps dying
 * (then the window says so through its pending requests and the log). Timers are injected so the logic is tested
 * without Electron.
 */
export interface SupervisorOptions {
  fork(): UtilityProcessLike;
  /** Called with each process started (the first and every restart): wire its messages, open the connection. */
  onStart(host: UtilityProcessLike, restart: boolean): void;
  /** Called when a process exited, before any restart. */
  onExit?(code: number): void;
  log?(message: string): void;
  /** Deaths within `windowMs` after which no restart is tried. */
  maxRestarts?: number;
  windowMs?: number;
  /** First pause before a restart; doubled per recent death, at most `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  setTimeout?(callback: () => void, ms: number): unknown;
  clearTimeout?(timer: unknown): void;
  now?(): number;
}

export class RuntimeSupervisor {
  private current: UtilityProcessLike | undefined;
  private deaths: number[] = [];
  private timer: unknown;
  private stopped = false;
  private started = 0;
  private givenUp = false;

  constructor(private readonly options: SupervisorOptions) {}

  get host(): UtilityProcessLike | undefined {
    return this.current;
  }

  /** Processes started after the first. */
  get restarts(): number {
    return Math.max(0, this.started - 1);
  }

  /** It kept dying and is not restarted any more. */
  get gaveUp(): boolean {
    return this.givenUp;
  }

  start(): UtilityProcessLike {
    const host = this.options.fork();
    this.current = host;
    const restart = this.started > 0;
    this.started++;
    host.on('exit', (code) => this.exited(host, code));
    this.options.onStart(host, restart);
    return host;
  }

  private exited(host: UtilityProcessLike, code: number): void {
    if (this.current !== host) return;
    this.current = undefined;
    this.options.onExit?.(code);
    if (this.stopped) return;
    const now = (this.options.now ?? Date.now)();
    const windowMs = this.options.windowMs ?? 60_000;
    this.deaths = [...this.deaths.filter((at) => now - at < windowMs), now];
    const max = this.options.maxRestarts ?? 5;
    const log = this.options.log ?? (() => undefined);
    if (this.deaths.length > max) {
      log(`the runtime process exited with ${code} ${this.deaths.length} times within ${windowMs} ms; not restarted`);
      this.givenUp = true;
      return;
    }
    const delay = Math.min(
      (this.options.baseDelayMs ?? 250) * 2 ** (this.deaths.length - 1),
      this.options.maxDelayMs ?? 8_000,
    );
    log(`the runtime process exited with ${code}; restarting it in ${delay} ms`);
    const schedule = this.options.setTimeout ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
    this.timer = schedule(() => {
      this.timer = undefined;
      if (!this.stopped) this.start();
    }, delay);
  }

  /** No more restarts (the app quits). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) (this.options.clearTimeout ?? ((t) => clearTimeout(t as NodeJS.Timeout)))(this.timer);
    this.timer = undefined;
  }
}
