import type { Runtime } from '../runtime/runtime.js';
import type { XPathService } from '../xpath/xpath-service.js';
import { selectNodes } from './select-nodes.js';

/** How long one evaluation of a watched subtree may take. */
const SELECTION_TIMEOUT_MS = 30_000;

/**
 * The runtime ids of the nodes an XPath selects and of everything below them, evaluated again after each change of
 * children (one evaluation at a time; changes during one make one more). Whether an event's node belongs is decided
 * against an evaluation that saw every change of children reported before the event.
 */
export class SubtreeSelection {
  private ids: ReadonlySet<string> = new Set();
  /** Grows with every change of children; an evaluation covers the changes up to the value it started at. */
  private changes = 0;
  private covered = -1;
  private running: Promise<void> | undefined;
  private readonly stopWatching: () => void;
  private closed = false;

  private constructor(
    private readonly xpath: XPathService,
    private readonly subtreeExpression: string,
    runtime: Runtime,
    private readonly warn: (message: string) => void,
  ) {
    this.stopWatching = runtime.watchTree((changes) => {
      if (changes === 'all' || changes.some((change) => change.children)) this.changed();
    });
  }

  /** Checks that the expression selects nodes (a usage error otherwise) and evaluates the subtree once. */
  static async start(
    runtime: Runtime,
    xpath: XPathService,
    expression: string,
    warn: (message: string) => void,
  ): Promise<SubtreeSelection> {
    const selected = await selectNodes(
      xpath,
      expression,
      SELECTION_TIMEOUT_MS,
      `the XPath to watch must select elements, "${expression}" selected other items`,
    );
    if (selected.length === 0) warn(`"${expression}" selects nothing yet; its events show once it does`);
    const selection = new SubtreeSelection(xpath, `(${expression})/descendant-or-self::node()`, runtime, warn);
    selection.changed();
    await selection.running;
    return selection;
  }

  /** The number of runtime ids in the selection now. */
  get size(): number {
    return this.ids.size;
  }

  /** A marker for "the changes of children reported until now" (take it when an event arrives). */
  get mark(): number {
    return this.changes;
  }

  /** Whether the node belongs, decided by an evaluation that covers the changes up to `mark`. */
  async contains(runtimeId: string, mark: number): Promise<boolean> {
    while (!this.ids.has(runtimeId) && this.covered < mark && !this.closed) {
      if (!this.running) this.changed();
      await this.running;
    }
    return this.ids.has(runtimeId);
  }

  close(): void {
    this.closed = true;
    this.stopWatching();
  }

  private changed(): void {
    this.changes++;
    if (!this.running && !this.closed) this.running = this.evaluate();
  }

  private async evaluate(): Promise<void> {
    while (this.covered < this.changes && !this.closed) {
      const upTo = this.changes;
      try {
        const nodes = await selectNodes(this.xpath, this.subtreeExpression, SELECTION_TIMEOUT_MS);
        this.ids = new Set(nodes.map((node) => node.runtimeId));
      } catch (error) {
        this.warn(`the watched elements could not be found again: ${(error as Error).message}`);
      }
      this.covered = upTo;
    }
    this.running = undefined;
  }
}
