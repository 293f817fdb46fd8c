import type { Runtime } from '../runtime/runtime.js';

/** How long the application gets to react; quiet that ends a reaction. */
export const REACTION_TIMEOUT_MS = 2000;
export const REACTION_QUIET_MS = 50;

export interface Reaction {
  /** An accessibility event came after the action began. */
  reacted: boolean;
  /** From the start of the action to its first event; undefined without one. */
  firstEventMs: number | undefined;
  /** From the end of the action until the answer (the quiet after the last event, or the timeout). */
  settledMs: number;
}

/**
 * Watches the runtime's events from the start of an action until the application has reacted to it: its first event
 * since the action began, then REACTION_QUIET_MS without one after the action ended; at most REACTION_TIMEOUT_MS
 * after the action ended. (The runtime's provider events for now; an event service can take their place here alone.)
 */
export class ReactionWatch {
  private readonly began = performance.now();
  private first: number | undefined;
  private last: number | undefined;
  private wake: (() => void) | undefined;
  private readonly stop: () => void;

  constructor(runtime: Runtime) {
    this.stop = runtime.registerEventSink(() => this.note());
  }

  /** A sign of the reaction other than an accessibility event (a scrolled element that moved). */
  note(): void {
    const now = performance.now();
    this.first ??= now;
    this.last = now;
    this.wake?.();
  }

  /** Called when the action is done: resolves once the application has reacted (or the timeout passed). */
  async settled(): Promise<Reaction> {
    const ended = performance.now();
    const deadline = ended + REACTION_TIMEOUT_MS;
    try {
      for (;;) {
        const now = performance.now();
        if (now >= deadline) break;
        const quietUntil = this.last === undefined ? deadline : Math.max(ended, this.last) + REACTION_QUIET_MS;
        if (now >= quietUntil) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(quietUntil, deadline) - now);
          // Waiting for the first event: it ends the wait. Later events only push the quiet back (the next turn).
          if (this.last === undefined)
            this.wake = () => {
              clearTimeout(timer);
              resolve();
            };
        });
        this.wake = undefined;
      }
      return {
        reacted: this.first !== undefined,
        firstEventMs: this.first === undefined ? undefined : Math.round(this.first - this.began),
        settledMs: Math.round(performance.now() - ended),
      };
    } finally {
      this.stop();
    }
  }

  /** Stops watching without waiting (the action failed). */
  cancel(): void {
    this.stop();
  }
}
