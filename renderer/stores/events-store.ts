/**
 * The Events panel's model: the host's typed accessibility events (`events.subscribe`, `ui.events`) as a live list.
 * A storm never freezes the page: at most EVENTS_SHOWN events are kept (the oldest dropped and counted with what the
 * host dropped), and what arrives is committed to the list at once, in a storm at most every COMMIT_MS.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InspectorClient } from '../../shared/api/client.js';
import type { InspectorEvent } from '../../shared/api/schema.js';
import type { UiEventRecord, UiEventType } from '../../shared/model/ui-events.js';
import { leadingThrottle } from '../../shared/throttle.js';
import { errorOf } from '../model/errors.js';

export const EVENTS_SHOWN = 1000;
/** A lone event is committed at once; in a storm at most one commit per this many milliseconds. */
const COMMIT_MS = 50;

export interface EventsState {
  /** Oldest first, at most EVENTS_SHOWN. */
  events: UiEventRecord[];
  watching: boolean;
  paused: boolean;
  /** The kinds asked for; empty means all. */
  types: UiEventType[];
  /** Only events of this node and its descendants (the tree's selection when the filter was set). */
  within: string | undefined;
  received: number;
  /** Dropped by the host (its buffer) and here (past EVENTS_SHOWN, or while paused). */
  dropped: number;
  coalesced: number;
  error: string | undefined;
  /** What clicking an event found (its node is gone). */
  notice: string | undefined;
}

export interface EventsActions {
  start(): Promise<void>;
  stop(): Promise<void>;
  setTypes(types: UiEventType[]): Promise<void>;
  setWithin(runtimeId: string | undefined): Promise<void>;
  setPaused(paused: boolean): void;
  clear(): void;
  /** The shown events as JSON lines (the `watch --format json` shape). */
  exportLines(): string;
  /** Selects an event's node in the tree, or says that it is gone. */
  open(record: UiEventRecord): Promise<void>;
  handleEvent(event: InspectorEvent): void;
}

export type EventsStore = StoreApi<EventsState & EventsActions>;

export function createEventsStore(
  client: InspectorClient,
  options: { reveal: (runtimeId: string) => Promise<void> },
): EventsStore {
  let pending: UiEventRecord[] = [];
  let droppedHere = 0;
  let hostDropped = 0;

  return createStore<EventsState & EventsActions>()((set, get) => {
    const commit = () => {
      if (get().paused) return;
      const joined = pending.length > 0 ? [...get().events, ...pending] : get().events;
      pending = [];
      const excess = joined.length - EVENTS_SHOWN;
      if (excess > 0) droppedHere += excess;
      set({ events: excess > 0 ? joined.slice(excess) : joined, dropped: hostDropped + droppedHere });
    };
    const committing = leadingThrottle(commit, COMMIT_MS);
    const subscribe = async () => {
      const { types, within } = get();
      try {
        await client.subscribeEvents({ ...(types.length > 0 ? { types } : {}), ...(within ? { within } : {}) });
        set({ watching: true, error: undefined });
      } catch (error) {
        set({ watching: false, error: errorOf(error).message });
      }
    };
    return {
      events: [],
      watching: false,
      paused: false,
      types: [],
      within: undefined,
      received: 0,
      dropped: 0,
      coalesced: 0,
      error: undefined,
      notice: undefined,

      start: subscribe,
      async stop() {
        set({ watching: false });
        await client.unsubscribeEvents().catch(() => undefined);
      },
      async setTypes(types) {
        set({ types });
        if (get().watching) await subscribe();
      },
      async setWithin(runtimeId) {
        set({ within: runtimeId });
        if (get().watching) await subscribe();
      },
      setPaused(paused) {
        set({ paused });
        if (!paused) commit();
      },
      clear() {
        pending = [];
        droppedHere = 0;
        hostDropped = 0;
        set({ events: [], dropped: 0, received: 0, coalesced: 0, notice: undefined });
      },
      exportLines() {
        return get()
          .events.map((record) => `${JSON.stringify(record)}\n`)
          .join('');
      },
      async open(record) {
        if (record.role === null) {
          set({ notice: `The element ${record.runtimeId} is gone` });
          return;
        }
        try {
          await options.reveal(record.runtimeId).catch(async () => {
            // The host may not have loaded the node yet (the tree loads lazily): find it by id, then show it.
            await client.evaluate(`//*[@RuntimeId='${record.runtimeId.replaceAll("'", "''")}']`).done;
            await options.reveal(record.runtimeId);
          });
          set({ notice: undefined });
        } catch (error) {
          const failure = errorOf(error);
          set({
            notice:
              failure.code === 'stale-node'
                ? `The element ${record.role} "${record.name ?? ''}" is gone`
                : `Could not select it: ${failure.message}`,
          });
        }
      },
      handleEvent(event) {
        if (event.type !== 'ui.events' || !get().watching) return;
        hostDropped = event.dropped;
        pending.push(...event.events);
        if (pending.length > EVENTS_SHOWN) {
          droppedHere += pending.length - EVENTS_SHOWN;
          pending = pending.slice(-EVENTS_SHOWN);
        }
        set({ received: event.received, coalesced: event.coalesced, dropped: hostDropped + droppedHere });
        committing.request();
      },
    };
  });
}
