/** The inspector page: builds the API and the stores, wires them together, renders the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectApi } from './api/connect.js';
import { StoresContext, type Stores } from './app-context.js';
import { App } from './components/App.js';
import { createDetailsStore } from './stores/details-store.js';
import { createSessionStore } from './stores/session-store.js';
import { createSettingsStore } from './stores/settings-store.js';
import { createTreeStore } from './stores/tree-store.js';
import { createXPathStore } from './stores/xpath-store.js';
import { wireStores } from './stores/wiring.js';
import { setVocabularySource } from './xpath/monaco-setup.js';
import './styles.css';

const started = performance.now();
const { api, onClose } = connectApi(window.location);
const settings = createSettingsStore(window.localStorage);
const tree = createTreeStore(api);
const details = createDetailsStore(api);
const xpath = createXPathStore(api, {
  initialHistory: settings.getState().xpathHistory,
  onHistory: (history) => settings.getState().update({ xpathHistory: history }),
});
xpath.setState({ expression: settings.getState().lastExpression, live: settings.getState().liveEvaluate });
const session = createSessionStore(api, { onReveal: (node) => void tree.getState().reveal(node.runtimeId) });
const stores: Stores = { api, tree, details, xpath, session, settings };
const { start, vocabulary } = wireStores(stores);
onClose(() => session.getState().handleEvent({ type: 'connection', state: 'closed' }));
setVocabularySource(vocabulary);

/** For the e2e tests and benchmarks: when the first tree rows were on screen. */
declare global {
  interface Window {
    __inspector?: { stores: Stores; firstTreeMs?: number };
  }
}
window.__inspector = { stores };

const container = document.getElementById('root')!;
createRoot(container).render(
  <StrictMode>
    <StoresContext.Provider value={stores}>
      <App onReconnect={() => void start()} />
    </StoresContext.Provider>
  </StrictMode>,
);

const unsubscribe = tree.subscribe((state) => {
  if (state.rows.length > 1) {
    unsubscribe();
    requestAnimationFrame(() => {
      window.__inspector!.firstTreeMs = performance.now() - started;
      document.documentElement.dataset.firstTree = 'ready';
    });
  }
});
if (new URLSearchParams(location.search).has('token')) history.replaceState(null, '', location.pathname);
void start();
