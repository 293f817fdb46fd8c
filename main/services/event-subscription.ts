import type { InspectorEvent, Result } from '../../shared/api/schema.js';
import { InspectorError } from '../../shared/model/errors.js';
import { EventStream, type EventFilter, type EventView } from './event-stream.js';

/**
 * One connection's event subscription (`events.subscribe`) on one view: at most one stream at a time, a new
 * subscription replacing the one before. Closed when the connection closes or looks at another view; a subscription
 * that was still starting then is cancelled.
 */
export class EventSubscription {
  private stream: EventStream | undefined;
  private closed = false;

  constructor(
    private readonly view: EventView,
    private readonly send: (event: InspectorEvent) => void,
  ) {}

  async subscribe(filter: EventFilter): Promise<Result<'events.subscribe'>> {
    this.unsubscribe();
    const stream = await EventStream.start(this.view, filter, this.send);
    if (this.closed) {
      stream.close();
      throw new InspectorError('cancelled', 'the connection closed or changed what it looks at');
    }
    this.stream?.close();
    this.stream = stream;
    return { subscribed: true, bufferLimit: stream.bufferLimit };
  }

  unsubscribe(): Result<'events.unsubscribe'> {
    const stream = this.stream;
    this.stream = undefined;
    stream?.close();
    return { unsubscribed: stream !== undefined };
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
  }
}
