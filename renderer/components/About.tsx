import { useEffect, useRef, useState } from 'react';
import { useSlice, useStores } from '../app-context.js';

/** "About": the inspector's version and the host's protocol, platform and providers, as the host's status says. */
export function AboutButton() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button ref={button} type="button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        About
      </button>
      {open ? (
        <AboutDialog
          onClose={() => {
            setOpen(false);
            button.current?.focus();
          }}
        />
      ) : null}
    </>
  );
}

function AboutDialog({ onClose }: { onClose: () => void }) {
  const { hostState } = useStores();
  const status = useSlice(hostState, (s) => s.info?.status);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('button')?.focus();
  }, []);
  return (
    <div
      ref={ref}
      className="dialog about"
      role="dialog"
      aria-modal="true"
      aria-label="About PlatynUI Inspector"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        }
      }}
    >
      <h2>PlatynUI Inspector</h2>
      {status ? (
        <dl>
          <dt>Version</dt>
          <dd>{status.version ?? 'not reported by this host'}</dd>
          <dt>Protocol</dt>
          <dd>{status.apiVersion}</dd>
          <dt>Platform</dt>
          <dd>{status.platform}</dd>
          <dt>Providers</dt>
          <dd>{status.providers.map((p) => `${p.displayName} (${p.state})`).join(', ') || 'none'}</dd>
        </dl>
      ) : (
        <p>Waiting for the inspector host…</p>
      )}
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
