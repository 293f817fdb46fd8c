/**
 * One inspector window's stores over one protocol client, and how they work together: host events go to the tree
 * and the host state, the selection drives the details panel, focus changes reveal in the tree while follow focus is
 * on, the XPath history is a setting, and the XPath completions read the live tree's names.
 */
import type { InspectorClient } from '../../shared/api/client.js';
import type { NameCatalog } from '../../shared/api/schema.js';
import type { NameVocabulary } from '../../shared/xpath/name-check.js';
import { qualifiedRole } from '../../shared/model/namespaces.js';
import type { Stores } from '../app-context.js';
import type { Vocabulary } from '../xpath/language.js';
import { createDetailsStore } from './details-store.js';
import { createLocatorsStore } from './locators-store.js';
import { errorOf } from '../model/errors.js';
import { HIGHLIGHT_MS } from '../model/placement.js';
import { ownApplicationsXPath } from '../model/own-windows.js';
import { createScreenStore } from './screen-store.js';
import { createEventsStore } from './events-store.js';
import { createRecorderStore } from './recorder-store.js';
import { createSelectionHighlight } from './selection-highlight.js';
import { createHostStateStore, selectAccessibilityOn, selectCapabilities } from './host-state-store.js';
import { createSettingsStore, HISTORY_LIMIT, type KeyValueStorage } from './settings-store.js';
import { createTreeStore } from './tree-store.js';
import { createXPathStore } from './xpath-store.js';

export interface Inspector {
  stores: Stores;
  /** Reads the host's settings into the settings store and the XPath console (before the console is shown). */
  loadSettings(): Promise<void>;
  /** Connects: the host's description, then the tree from the desktop (unless accessibility is off). */
  start(): Promise<void>;
  vocabulary(): Vocabulary;
  stop(): void;
}

export interface InspectorOptions {
  /** Where the settings are cached for the first paint (localStorage in the page). */
  cache?: KeyValueStorage | undefined;
  xpathDebounceMs?: number;
  settingsSaveDelayMs?: number;
}

export function createInspector(client: InspectorClient, options: InspectorOptions = {}): Inspector {
  const settings = createSettingsStore({
    cache: options.cache,
    ...(options.settingsSaveDelayMs !== undefined ? { saveDelayMs: options.settingsSaveDelayMs } : {}),
  });
  const tree = createTreeStore(client);
  const details = createDetailsStore(client);
  const locators = createLocatorsStore(client);
  // The providers' catalog of names (asked for once connected) and the names seen in the live tree.
  let catalog: NameCatalog = { elements: [], attributes: [] };
  const seenAttributes = new Set<string>();
  const nameVocabulary = (): NameVocabulary => {
    const elements = new Set(catalog.elements);
    for (const node of tree.getState().nodes.values()) elements.add(qualifiedRole(node.namespace, node.role));
    return { elements, attributes: new Set([...catalog.attributes, ...seenAttributes]) };
  };
  const xpath = createXPathStore(client, {
    vocabulary: nameVocabulary,
    historyLimit: HISTORY_LIMIT,
    onHistory: (history) => settings.getState().update({ xpathHistory: history }),
    ...(options.xpathDebounceMs !== undefined ? { debounceMs: options.xpathDebounceMs } : {}),
  });
  const hostState = createHostStateStore(client, { onReveal: (node) => void tree.getState().reveal(node.runtimeId) });
  const screen = createScreenStore(client);
  const events = createEventsStore(client, { reveal: (runtimeId) => tree.getState().reveal(runtimeId) });
  const recorder = createRecorderStore(client);
  // What is outlined on the real screen is outlined in the Screen view too.
  const selectionHighlight = createSelectionHighlight(client, {
    tree,
    hostState,
    settings,
    onOutlined: (rects) => screen.getState().showHighlighted(rects, HIGHLIGHT_MS),
  });
  const stores: Stores = {
    client,
    tree,
    details,
    xpath,
    hostState,
    settings,
    locators,
    screen,
    highlight: selectionHighlight.store,
    events,
    recorder,
  };

  const applySettings = () => {
    const { xpathHistory, lastExpression, liveEvaluate } = settings.getState();
    xpath.setState({ history: xpathHistory, expression: lastExpression, live: liveEvaluate });
  };
  applySettings();

  const offs: Array<() => void> = [() => selectionHighlight.stop()];
  offs.push(
    client.onAny((event) => {
      tree.getState().handleEvent(event);
      hostState.getState().handleEvent(event);
      events.getState().handleEvent(event);
      recorder.getState().handleEvent(event);
      if (
        event.type === 'focus.changed' &&
        settings.getState().followFocus &&
        selectCapabilities(hostState.getState()).followFocus
      ) {
        void tree.getState().reveal(event.node.runtimeId);
      }
    }),
  );

  // The details follow the selected node, and its newest view (a reload brings a new revision or the stale mark).
  let shown: unknown;
  offs.push(
    tree.subscribe((state) => {
      const node = state.selectedId ? state.nodes.get(state.selectedId) : undefined;
      if (node === shown) return;
      const previous = details.getState().node;
      shown = node;
      if (!node) {
        if (!state.selectedId) void details.getState().show(undefined);
        return;
      }
      if (previous?.runtimeId === node.runtimeId && node.stale && !previous.stale) {
        details.setState({ node });
        return;
      }
      void details.getState().show(node);
    }),
  );

  // The Screen panel draws boxes for the selected node and the XPath matches while it is visible.
  const matchIds = () =>
    xpath
      .getState()
      // The pages fetched so far (the first 500 at least): the host keeps the rest.
      .results.map((r) => (r?.type === 'node' ? r.node.runtimeId : r?.type === 'attribute' ? r.owner.runtimeId : ''))
      .filter(Boolean);
  offs.push(
    tree.subscribe((state, previous) => {
      if (screen.getState().visible && state.selectedId !== previous.selectedId)
        void screen.getState().showSelected(state.selectedId);
    }),
    xpath.subscribe((state, previous) => {
      const changed = state.status !== previous.status || state.results !== previous.results;
      if (screen.getState().visible && changed && state.status !== 'running')
        void screen.getState().showMatches(matchIds());
    }),
    screen.subscribe((state, previous) => {
      if (!state.visible || previous.visible) return;
      void screen.getState().showSelected(tree.getState().selectedId);
      void screen.getState().showMatches(matchIds());
    }),
    () => screen.getState().dispose(),
  );

  // Attribute names seen on any node shown so far: completions offer them after `@`.
  offs.push(
    details.subscribe((state, previous) => {
      if (state.attributes === previous.attributes) return;
      for (const entry of state.attributes) {
        seenAttributes.add(entry.namespace === 'control' ? entry.name : `${entry.namespace}:${entry.name}`);
      }
    }),
  );

  // The providers' catalog, asked for again whenever the host's description changes (a snapshot opened or closed).
  // Without it the names are checked against the loaded tree alone.
  offs.push(
    hostState.subscribe((state, previous) => {
      if (!state.info || state.info === previous.info) return;
      void client.names().then(
        (names) => (catalog = names),
        () => undefined,
      );
    }),
  );

  const loadSettings = async () => {
    await settings.getState().load(client);
    applySettings();
  };

  const start = async () => {
    const info = await hostState.getState().connect();
    if (!info) return;
    // A recording may be running from before this page (a reload).
    if (info.status.capabilities.record) void recorder.getState().load();

    if (!selectAccessibilityOn(hostState.getState())) return;
    await tree.getState().setRoot(info.desktop);
    void markOwnApplications();
  };

  // The applications showing this inspector, marked in the tree. Queued behind the console's evaluation; one the
  // console starts cancels it, so it tries again a few times.
  const markOwnApplications = async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const ids = new Set<string>();
      const handle = client.evaluate(ownApplicationsXPath(), {
        queue: true,
        timeoutMs: 10_000,
        onItems: (items) => {
          for (const item of items) if (item.type === 'node') ids.add(item.node.runtimeId);
        },
      });
      try {
        await handle.done;
        hostState.setState({ ownApplications: ids });
        return;
      } catch (error) {
        if (errorOf(error).code !== 'cancelled') return;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };

  const vocabulary = (): Vocabulary => {
    const roles = new Set<string>();
    for (const node of tree.getState().nodes.values()) roles.add(qualifiedRole(node.namespace, node.role));
    const attributes = new Set<string>([
      'Name',
      'Role',
      'Id',
      'Bounds',
      'IsEnabled',
      'IsVisible',
      'IsFocused',
      'RuntimeId',
      'Technology',
    ]);
    for (const name of seenAttributes) attributes.add(name);
    for (const name of catalog.attributes) attributes.add(name);
    return { roles, attributes };
  };

  return { stores, loadSettings, start, vocabulary, stop: () => offs.forEach((off) => off()) };
}
