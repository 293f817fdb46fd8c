import type { ProviderEvent } from '../core/provider.js';

export type RuntimeEvent = ProviderEvent & { providerId: string };
export type RuntimeEventSink = (event: RuntimeEvent) => void;

/** Fans provider events out, synchronously, to every registered sink (PlatynUI §7.2). A failing sink is isolated. */
export class EventDispatcher {
  private readonly sinks = new Set<RuntimeEventSink>();
  private stopped = false;

  register(sink: RuntimeEventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  dispatch(event: RuntimeEvent): void {
    if (this.stopped) return;
    for (const sink of [...this.sinks]) {
      try {
        sink(event);
      } catch (error) {
        process.emitWarning(`event sink failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.sinks.clear();
  }
}
