import { Fifo } from '../../shared/fifo.js';
import type { ProviderUiEvent } from '../core/provider.js';

/** An event as it arrived: when, and from which provider. */
export interface QueuedEvent {
  event: ProviderUiEvent;
  providerId: string;
  /** Milliseconds since the epoch when it (or the latest event merged into it) arrived. */
  time: number;
}

export interface EventCounts {
  /** Events that arrived. */
  received: number;
  /** Events merged into a newer one of the same kind and node (state, name, value, bounds, selection, focus). */
  coalesced: number;
  /** Events dropped because the buffer was full (the oldest go first, so the latest state always shows). */
  dropped: number;
}

/**
 * The bounded buffer between the providers and the slower work of describing and filtering events. An event that
 * only says what something is now (a state, a name, a value, bounds) replaces one of the same kind and node still
 * waiting (in its place); past the limit the oldest waiting event is dropped and counted.
 */
export class EventQueue {
  private readonly waiting = new Fifo<QueuedEvent>();
  private readonly byKey = new Map<string, QueuedEvent>();
  readonly counts: EventCounts = { received: 0, coalesced: 0, dropped: 0 };

  constructor(readonly limit: number) {}

  get size(): number {
    return this.waiting.length;
  }

  push(event: ProviderUiEvent, providerId: string, time: number): void {
    this.counts.received++;
    const key = coalescingKey(event, providerId);
    const earlier = key === undefined ? undefined : this.byKey.get(key);
    if (earlier) {
      earlier.event = event;
      earlier.time = time;
      this.counts.coalesced++;
      return;
    }
    while (this.waiting.length >= this.limit && this.take()) this.counts.dropped++;
    const queued: QueuedEvent = { event, providerId, time };
    this.waiting.push(queued);
    if (key !== undefined) this.byKey.set(key, queued);
  }

  /** The oldest waiting event, or undefined when none waits. */
  take(): QueuedEvent | undefined {
    const next = this.waiting.take();
    if (next) this.forget(next);
    return next;
  }

  /** Drops everything waiting (counted as dropped). */
  clear(): void {
    while (this.take()) this.counts.dropped++;
  }

  private forget(queued: QueuedEvent): void {
    const key = coalescingKey(queued.event, queued.providerId);
    if (key !== undefined && this.byKey.get(key) === queued) this.byKey.delete(key);
  }
}

/** Events that only tell the latest state of something share a key; events that tell a step (text, children) none. */
function coalescingKey(event: ProviderUiEvent, providerId: string): string | undefined {
  switch (event.type) {
    case 'state-changed':
      return `${providerId} ${event.type} ${event.state} ${event.runtimeId}`;
    case 'focus':
    case 'name-changed':
    case 'value-changed':
    case 'bounds-changed':
    case 'selection-changed':
      return `${providerId} ${event.type} ${event.runtimeId}`;
    default:
      return undefined;
  }
}
