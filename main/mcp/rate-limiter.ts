/**
 * At most `limit` events in any window of `windowMs` (a sliding log). `take()` answers whether one more may happen
 * now and, when not, how long until it may.
 */
export class RateLimiter {
  private readonly times: number[] = [];

  constructor(
    readonly limit: number,
    private readonly windowMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`a rate limit needs a whole number from 1, got ${limit}`);
  }

  take(): { allowed: true } | { allowed: false; retryAfterMs: number } {
    const now = this.now();
    while (this.times.length > 0 && now - this.times[0]! >= this.windowMs) this.times.shift();
    if (this.times.length >= this.limit) {
      return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(this.times[0]! + this.windowMs - now)) };
    }
    this.times.push(now);
    return { allowed: true };
  }
}
