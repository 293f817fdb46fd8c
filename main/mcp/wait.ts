import { query, type QueryAnswer } from './query.js';
import type { McpContext } from './context.js';

/** How often ui_wait looks again when the tree reports no change (providers that miss some changes). */
const POLL_MS = 250;
const SETTLE_MS = 50;

export type WaitCondition = 'matches' | 'gone';

export interface WaitAnswer {
  met: boolean;
  waitedMs: number;
  answer: QueryAnswer;
}

/**
 * Evaluates the XPath until it selects something (`matches`) or nothing (`gone`), again after every change of the
 * tree (and every POLL_MS), until the timeout; answers met: false then (not an error: the agent decides).
 */
export async function waitFor(
  context: McpContext,
  xpath: string,
  condition: WaitCondition,
  options: { timeoutMs: number; maxResults: number; signal?: AbortSignal },
): Promise<WaitAnswer> {
  const started = performance.now();
  const deadline = started + options.timeoutMs;
  let changed: (() => void) | undefined;
  const unwatch = context.runtime.watchTree(() => changed?.());
  try {
    for (;;) {
      const remaining = Math.max(1, deadline - performance.now());
      const answer = await query(context, xpath, {
        maxResults: options.maxResults,
        timeoutMs: remaining,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const matches = answer.items.length + answer.values.length > 0;
      const met = condition === 'matches' ? matches : !matches;
      const now = performance.now();
      if (met || now >= deadline || options.signal?.aborted) {
        return { met, waitedMs: Math.round(now - started), answer };
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(POLL_MS, deadline - now));
        // A change is looked at after a short settling time, so a burst of events costs one evaluation.
        changed = () => {
          clearTimeout(timer);
          changed = undefined;
          setTimeout(resolve, SETTLE_MS);
        };
      });
      changed = undefined;
    }
  } finally {
    unwatch();
  }
}
