/**
 * Calls `flush` at most once per `intervalMs` however often `poke()` is called: the first poke after a quiet interval
 * flushes at once, later ones are gathered into one flush when the interval has passed.
 */
export class Coalescer {
  private last = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly flush: () => void,
    private readonly intervalMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  poke(): void {
    if (this.timer) return;
    const wait = this.last + this.intervalMs - this.now();
    if (wait <= 0) this.fire();
    else this.timer = setTimeout(() => this.fire(), wait);
  }

  private fire(): void {
    this.timer = undefined;
    this.last = this.now();
    this.flush();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
