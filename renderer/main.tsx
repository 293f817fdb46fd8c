/** The inspector page: connects the protocol client, builds the stores, renders the app. */
import type { Stores } from './app-context.js';
import { checkAgainstSchema, connectClient } from './connection.js';
import { createInspector } from './stores/wiring.js';
import { setVocabularySource } from './xpath/vocabulary-source.js';
import './styles.css';

const started = performance.now();
// React and the components, fetched beside this module (index.html preloads them), parsed after the first requests.
const appView = import('./app-view.js');
const { client, onClose } = connectClient(window.location);
const cache = (() => {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
})();
const inspector = createInspector(client, { cache });
const { stores } = inspector;
onClose(() => stores.hostState.getState().setConnection('closed'));
setVocabularySource(inspector.vocabulary);

/** For the e2e tests and benchmarks: when the first tree rows were on screen. */
declare global {
  interface Window {
    __inspector?: { stores: Stores; firstTreeMs?: number };
  }
}
window.__inspector = { stores };

let schemaChecked = false;
/** The schema check waits until the first rows are drawn (or the first load ended without them): off their way. */
const checkMessagesAgainstSchema = () => {
  if (schemaChecked) return;
  schemaChecked = true;
  checkAgainstSchema(client);
};
const unsubscribe = stores.tree.subscribe((state) => {
  if (state.rows.length > 1) {
    unsubscribe();
    requestAnimationFrame(() => {
      window.__inspector!.firstTreeMs = performance.now() - started;
      document.documentElement.dataset.firstTree = 'ready';
      setTimeout(checkMessagesAgainstSchema);
    });
  }
});
if (new URLSearchParams(location.search).has('token')) history.replaceState(null, '', location.pathname);

// The tree starts loading at once; the page is drawn when the host's settings (panel sizes, the console's last
// expression) are known, so that nothing jumps or is typed over.
void inspector.start().finally(() => setTimeout(checkMessagesAgainstSchema, 1000));
const root = document.getElementById('root')!;
void Promise.all([appView, inspector.loadSettings()]).then(
  ([{ renderApp }]) => renderApp(root, stores, () => void inspector.start()),
  (error: unknown) => {
    root.textContent = `The inspector's page could not load its user interface: ${String(error)}. Reload the page.`;
  },
);
window.addEventListener('pagehide', () => void stores.settings.getState().flush());
