/** The protocol client and the stores of one inspector window, handed to components through a React context. */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { InspectorClient } from '../shared/api/client.js';
import type { DetailsStore } from './stores/details-store.js';
import type { EventsStore } from './stores/events-store.js';
import type { LocatorsStore } from './stores/locators-store.js';
import type { RecorderStore } from './stores/recorder-store.js';
import type { ScreenStore } from './stores/screen-store.js';
import type { SelectionHighlightStore } from './stores/selection-highlight.js';
import type { HostStateStore } from './stores/host-state-store.js';
import type { SettingsStore } from './stores/settings-store.js';
import type { TreeStore } from './stores/tree-store.js';
import type { XPathStore } from './stores/xpath-store.js';

export interface Stores {
  client: InspectorClient;
  tree: TreeStore;
  details: DetailsStore;
  xpath: XPathStore;
  hostState: HostStateStore;
  settings: SettingsStore;
  locators: LocatorsStore;
  screen: ScreenStore;
  events: EventsStore;
  recorder: RecorderStore;
  /** The selected element outlined on screen, and where it is. */
  highlight: SelectionHighlightStore;
}

export const StoresContext = createContext<Stores | undefined>(undefined);

export function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('StoresContext is missing');
  return stores;
}

/** Subscribes a component to a slice of a store. */
export function useSlice<S, T>(store: StoreApi<S>, selector: (state: S) => T): T {
  return useStore(store, selector);
}
