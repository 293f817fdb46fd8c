import type { TreeChange } from '../../shared/api/schema.js';

const TREE_BATCH_MS = 50;
const TREE_BATCH_MAX = 500;

/**
 * Coalesces the runtime's tree changes into one `tree.changed` event per 50 ms; past 500 changes in a batch it only
 * says that some were dropped (overflow), and a client refreshes what it shows.
 */
export class TreeChangeBatcher {
  private pending: TreeChange[] = [];
  private overflow = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly flushTo: (changes: TreeChange[], overflow: boolean) => void) {}

  add(change: TreeChange): void {
    if (this.pending.length >= TREE_BATCH_MAX) this.overflow = true;
    else this.pending.push(change);
    this.timer ??= setTimeout(() => this.flush(), TREE_BATCH_MS);
  }

  private flush(): void {
    this.timer = undefined;
    if (this.pending.length === 0 && !this.overflow) return;
    const changes = this.pending;
    const overflow = this.overflow;
    this.pending = [];
    this.overflow = false;
    this.flushTo(changes, overflow);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
