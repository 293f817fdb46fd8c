import { InspectorError } from '../../shared/model/errors.js';
import type { XPathResults } from '../xpath/xpath-results.js';

/** A connection keeps the results of this many paged evaluations (each at most `limits.maxResults` items). */
export const KEPT_EVALUATIONS = 4;

/** The results of a connection's last paged evaluations, oldest dropped first. */
export class KeptResults {
  private readonly byId = new Map<string, XPathResults>();

  keep(id: string, items: XPathResults): void {
    this.byId.delete(id);
    this.byId.set(id, items);
    while (this.byId.size > KEPT_EVALUATIONS) this.byId.delete(this.byId.keys().next().value!);
  }

  /** The kept results; an evaluation not kept (unknown, not paged, or dropped) is an `invalid-input` error. */
  get(id: string): XPathResults {
    const items = this.byId.get(id);
    if (!items) {
      throw new InspectorError(
        'invalid-input',
        `no results kept for evaluation "${id}": only the last ${KEPT_EVALUATIONS} paged evaluations of a connection are kept`,
      );
    }
    return items;
  }

  forget(id: string): void {
    this.byId.delete(id);
  }

  clear(): void {
    this.byId.clear();
  }
}
