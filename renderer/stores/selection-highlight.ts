/**
 * The selected tree row's element outlined on screen (unless the setting is off or the host cannot highlight),
 * once the selection rested for a moment, and where it is: on screen, off screen, or without bounds.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InspectorClient } from '../../shared/api/client.js';
import type { Rect } from '../../shared/model/values.js';
import { errorOf } from '../model/errors.js';
import { HIGHLIGHT_MS, placementOf, type Placement } from '../model/placement.js';
import { selectCapabilities, type HostStateStore } from './host-state-store.js';
import type { SettingsStore } from './settings-store.js';
import type { TreeStore } from './tree-store.js';

export interface SelectionHighlightState {
  /** The element last outlined for the selection, and where it is. */
  runtimeId: string | undefined;
  placement: Placement | undefined;
  error: string | undefined;
  /** Outlines an element now (the tree's Highlight button), whatever the setting. */
  outline(runtimeId: string): Promise<void>;
}

export type SelectionHighlightStore = StoreApi<SelectionHighlightState>;

/** The selection must rest this long before it is outlined (arrowing through the tree outlines only the last). */
export const SELECTION_REST_MS = 150;

export function createSelectionHighlight(
  client: InspectorClient,
  stores: {
    tree: TreeStore;
    hostState: HostStateStore;
    settings: SettingsStore;
    /** Told what was outlined (the Screen view draws it too). */
    onOutlined?: (rects: Rect[]) => void;
  },
  restMs = SELECTION_REST_MS,
): { store: SelectionHighlightStore; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ticket = 0;

  const outline = async (id: string) => {
    const mine = ++ticket;
    try {
      const { rects } = await client.highlight({ runtimeIds: [id], durationMs: HIGHLIGHT_MS });
      stores.onOutlined?.(rects);
      if (mine !== ticket) return;
      const screens = stores.hostState.getState().info?.screens ?? [];
      store.setState({ runtimeId: id, placement: placementOf(rects, screens), error: undefined });
    } catch (error) {
      if (mine === ticket) store.setState({ runtimeId: id, placement: undefined, error: errorOf(error).message });
    }
  };

  const store = createStore<SelectionHighlightState>()(() => ({
    runtimeId: undefined,
    placement: undefined,
    error: undefined,
    outline,
  }));

  const off = stores.tree.subscribe((state, previous) => {
    if (state.selectedId === previous.selectedId) return;
    if (timer) clearTimeout(timer);
    ticket++;
    store.setState({ runtimeId: undefined, placement: undefined, error: undefined });
    const id = state.selectedId;
    const wanted = stores.settings.getState().highlightSelection;
    if (!id || !wanted || !selectCapabilities(stores.hostState.getState()).highlight) return;
    timer = setTimeout(() => void outline(id), restMs);
  });

  return {
    store,
    stop() {
      off();
      if (timer) clearTimeout(timer);
    },
  };
}
