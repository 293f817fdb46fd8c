import type { InspectorEvent } from '../../shared/api/schema.js';
import type { UiEventRecord, UiEventType } from '../../shared/model/ui-events.js';
import { leadingThrottle } from '../../shared/throttle.js';
import type { Runtime } from '../runtime/runtime.js';
import type { XPathService } from '../xpath/xpath-service.js';
import { UiEventWatch } from './ui-events.js';

/** A view whose events a connection can watch: its runtime, its XPath service, the `eventBuffer` limit in force. */
export interface EventView {
  readonly runtime: Runtime;
  readonly xpath: XPathService;
  readonly limits: { readonly eventBuffer: number };
}

export type EventFilter = {
  types?: UiEventType[] | undefined;
  xpath?: string | undefined;
  within?: string | undefined;
};

/**
 * Events go to a connection at once after a quiet spell, else gathered: at most one `ui.events` message per this many
 * milliseconds (with the page's own commit interval, an event shows within 100 ms).
 */
const EVENT_BATCH_MS = 50;

/**
 * One connection's event subscription: the event service's watch, bounded by the `eventBuffer` limit, and the
 * delivered events sent at once, or in a storm gathered into one `ui.events` message per 50 ms. What waits to be sent is bounded by the same
 * limit (the oldest dropped and counted), so a client that reads slowly costs the host a fixed amount.
 */
export class EventStream {
  private batch: UiEventRecord[] = [];
  private droppedHere = 0;
  private readonly sending = leadingThrottle(() => this.flush(), EVENT_BATCH_MS);

  private constructor(
    private readonly watch: UiEventWatch,
    private readonly limit: number,
    private readonly send: (event: InspectorEvent) => void,
  ) {}

  static async start(
    context: EventView,
    filter: EventFilter,
    send: (event: InspectorEvent) => void,
  ): Promise<EventStream> {
    const limit = context.limits.eventBuffer;
    const delivery: { to?: EventStream } = {};
    const watch = await UiEventWatch.start(
      context.runtime,
      context.xpath,
      {
        ...(filter.types ? { types: filter.types } : {}),
        ...(filter.xpath ? { xpath: filter.xpath } : {}),
        ...(filter.within ? { within: filter.within } : {}),
        bufferLimit: limit,
      },
      (record) => delivery.to?.add(record),
    );
    delivery.to = new EventStream(watch, limit, send);
    return delivery.to;
  }

  get bufferLimit(): number {
    return this.limit;
  }

  private add(record: UiEventRecord): void {
    if (this.batch.length >= this.limit) {
      this.batch.shift();
      this.droppedHere++;
    }
    this.batch.push(record);
    this.sending.request();
  }

  private flush(): void {
    const events = this.batch;
    this.batch = [];
    const { received, coalesced, dropped } = this.watch.counts;
    this.send({ type: 'ui.events', events, received, coalesced, dropped: dropped + this.droppedHere });
  }

  close(): void {
    this.sending.cancel();
    this.watch.close();
  }
}
