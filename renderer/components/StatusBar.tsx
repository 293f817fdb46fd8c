import { useSlice, useStores } from '../app-context.js';

export function StatusBar() {
  const { api, session, tree } = useStores();
  const connection = useSlice(session, (s) => s.connection);
  const info = useSlice(session, (s) => s.info);
  const message = useSlice(session, (s) => s.message);
  const error = useSlice(session, (s) => s.error);
  const loaded = useSlice(tree, (s) => (s.version >= 0 ? s.nodes.size : 0));
  const treeError = useSlice(tree, (s) => s.lastError);
  const picking = useSlice(session, (s) => s.picking);
  return (
    <footer className="status-bar" aria-label="Status bar">
      <span className={`conn ${connection}`}>● {connection === 'open' ? 'connected' : connection}</span>
      {info ? (
        <span>
          {info.providers.map((p) => `${p.name} (${p.state})`).join(', ')} · accessibility {info.accessibility}
          {info.platform ? ` · platform ${info.platform}` : ''}
        </span>
      ) : null}
      <span>{loaded} nodes loaded</span>
      {picking ? <span className="picking">Pick mode</span> : null}
      {error || treeError ? <span className="error">{error ?? treeError}</span> : null}
      {message ? <span className={message.level === 'error' ? 'error' : 'message'}>{message.text}</span> : null}
      {info?.features.stop ? (
        <button
          type="button"
          className="stop-host"
          title="End the host and everything it started"
          onClick={() => void api.stopHost().catch((e: unknown) => session.getState().say(String(e), 'error'))}
        >
          Stop host
        </button>
      ) : null}
    </footer>
  );
}
