import { Fifo } from './fifo.js';

/**
 * Lets at most `limit` tasks run at once; the others wait their turn, first come first served. What a client can
 * make the host start at once (thousands of attribute reads of a large tree) stays bounded this way.
 */
export class Gate {
  private running = 0;
  private readonly waiting = new Fifo<() => void>();

  constructor(readonly limit: number) {
    checkLimit(limit);
  }

  /** How many tasks run now. */
  get active(): number {
    return this.running;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.take();
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * Runs `body` for each item in their order, at most `limit` at once (a Gate for a list known up front): that many
 * loops take the next item as one ends, so no promise is made per item up front (ten thousand of them, made at once,
 * held the thread). Stops taking items at the first failure, which it throws.
 */
export async function eachAtOnce<T>(
  items: readonly T[],
  limit: number,
  body: (item: T) => Promise<void>,
): Promise<void> {
  checkLimit(limit);
  let next = 0;
  let failed = false;
  const loop = async () => {
    while (!failed && next < items.length) {
      try {
        await body(items[next++] as T);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, loop));
}

function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`a gate's limit must be a positive integer, got ${limit}`);
}
