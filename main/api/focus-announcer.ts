import { AttributeNames } from '../../shared/model/attributes.js';
import type { RuntimeNode } from '../runtime/node.js';

const FOCUS_REPEAT_MS = 1000;

/**
 * Decides when an updated node's focus is news: when its IsFocused turned true and it is not the node announced
 * last within a second (the two events of one focus change announce it once).
 */
export class FocusAnnouncer {
  private announced: { node: RuntimeNode; at: number } | undefined;

  constructor(private readonly announce: (node: RuntimeNode) => void) {}

  async updated(node: RuntimeNode): Promise<void> {
    try {
      const [state] = await node.attributesNamed(AttributeNames.IsFocused);
      const focused = state?.value.type === 'Bool' && state.value.value;
      if (focused && !this.justAnnounced(node)) {
        this.announced = { node, at: Date.now() };
        this.announce(node);
      }
    } catch {
      // A node that went away while we asked has no focus to report.
    }
  }

  private justAnnounced(node: RuntimeNode): boolean {
    return this.announced?.node === node && Date.now() - this.announced.at < FOCUS_REPEAT_MS;
  }
}
