import type { Runtime } from '../runtime/runtime.js';
import type { XPathService } from '../xpath/xpath-service.js';

/** Waits this long after the desktop's children were listed, so the page draws its first rows first. */
const WARM_DELAY_MS = 250;
/** Locator attributes are captured in the background for trees up to this size. */
const CAPTURE_MAX_NODES = 30_000;
/** The warm-up is an evaluation of its own owner: a connection's queries take turns with it, never wait behind it. */
const WARM_OWNER = {};

/**
 * Once per context of an interactive host, after the first listing of the desktop (the MCP server: at its start):
 * loads every application's tree
 * into the runtime and the XPath worker (`count(//*)`, evaluated like any query) and captures the locator attributes
 * of the tree generation, in the background. The first query typed and the first "Find locators" then find the tree
 * loaded instead of loading it. Nothing waits for it; a failure (a timeout, an application that does not answer)
 * only means the first query loads what it needs, as without it.
 */
export class TreeWarmer {
  private started = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly abort = new AbortController();
  done: Promise<void> | undefined;

  constructor(
    private readonly runtime: Runtime,
    private readonly xpath: XPathService,
    private readonly timeoutMs: () => number,
    private readonly options: { delayMs?: number; captureLocators?: boolean } = {},
  ) {}

  /** The desktop's children were listed: start soon (once). */
  desktopListed(): void {
    this.start();
  }

  /** Starts the warm-up after the delay (once). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.done = new Promise<void>((resolve) => {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.warm().finally(resolve);
      }, this.options.delayMs ?? WARM_DELAY_MS);
    });
  }

  private loading: Promise<unknown> | undefined;

  /**
   * Resolves when the tree is in the XPath worker (at once when no warm-up runs). A query waits for it instead of
   * loading the same tree into the other worker at the same time, and then finds the loaded worker free.
   */
  treeLoaded(): Promise<void> {
    return this.loading ? this.loading.then(() => undefined) : Promise.resolve();
  }

  private async warm(): Promise<void> {
    try {
      const counted = this.xpath
        .evaluate('count(//*)', { owner: WARM_OWNER, timeoutMs: this.timeoutMs(), signal: this.abort.signal })
        .then(({ items }) => {
          const [item] = items;
          return item?.type === 'value' && item.value.type === 'Integer' ? item.value.value : Infinity;
        })
        .catch(() => Infinity);
      this.loading = counted.finally(() => (this.loading = undefined));
      const nodes = await counted;
      // A capture walks every node on the host's own thread: in the background only where that is quick.
      // The locator modules load only for a capture: a host that never captures (the MCP server) starts without them.
      if (this.options.captureLocators !== false && !this.abort.signal.aborted && nodes <= CAPTURE_MAX_NODES) {
        const { captureLocatorTree } = await import('./locate.js');
        await captureLocatorTree(this.runtime);
      }
    } catch {
      // background work: the first query or locate does what it needs itself
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.abort.abort();
  }
}
