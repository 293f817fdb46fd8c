import { useSlice, useStores } from '../app-context.js';
import { selectAccessibilityOn } from '../stores/host-state-store.js';

export function StatusBar() {
  const { client, hostState, tree, settings } = useStores();
  const connection = useSlice(hostState, (s) => s.connection);
  const providers = useSlice(hostState, (s) => s.info?.status.providers);
  const platform = useSlice(hostState, (s) => s.info?.status.platform);
  const accessibilityOn = useSlice(hostState, selectAccessibilityOn);
  const settingsError = useSlice(settings, (s) => s.hostError);
  const message = useSlice(hostState, (s) => s.message);
  const error = useSlice(hostState, (s) => s.error);
  const loaded = useSlice(tree, (s) => (s.version >= 0 ? s.nodes.size : 0));
  const treeError = useSlice(tree, (s) => s.lastError);
  const picking = useSlice(hostState, (s) => s.picking);
  const canStop = useSlice(hostState, (s) => s.info?.status.capabilities.stop ?? false);
  return (
    <footer className="status-bar" aria-label="Status bar">
      <span className={`conn ${connection}`}>● {connection === 'open' ? 'connected' : connection}</span>
      {providers ? (
        <span>
          {providers.map((p) => `${p.displayName} (${p.state})`).join(', ')} · accessibility{' '}
          {accessibilityOn ? 'on' : 'off'}
          {platform ? ` · platform ${platform}` : ''}
        </span>
      ) : null}
      <span>{loaded} nodes loaded</span>
      {picking ? <span className="picking">Pick mode</span> : null}
      {error || treeError ? <span className="error">{error ?? treeError}</span> : null}
      {settingsError ? <span className="error">{settingsError}</span> : null}
      {message ? <span className={message.level === 'error' ? 'error' : 'message'}>{message.text}</span> : null}
      {canStop ? (
        <button
          type="button"
          className="stop-host"
          title="End the host and everything it started"
          onClick={() =>
            void client.stopHost().catch((e: unknown) => hostState.getState().say(`Stop failed: ${String(e)}`, 'error'))
          }
        >
          Stop host
        </button>
      ) : null}
    </footer>
  );
}
