import { useState, type KeyboardEvent } from 'react';
import { useSlice, useStores } from '../app-context.js';
import { selectCapabilities } from '../stores/session-store.js';
import { ChecksPanel } from './ChecksPanel.js';
import { ExportPanel } from './ExportPanel.js';
import { PatternsPanel } from './PatternsPanel.js';
import { ScreenPanel } from './ScreenPanel.js';

const TABS = ['Details', 'Screen'] as const;
type Tab = (typeof TABS)[number];

/** The right-hand side pane: the selected node's patterns, export and checks, or the live Screen. */
export function SidePane() {
  const { session } = useStores();
  const canScreen = useSlice(session, (s) => selectCapabilities(s).screen);
  const [tab, setTab] = useState<Tab>('Details');
  const shown: Tab = canScreen ? tab : 'Details';
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = TABS[(TABS.indexOf(shown) + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]!;
    if (next === 'Screen' && !canScreen) return;
    setTab(next);
    document.getElementById(`side-tab-${next}`)?.focus();
  };
  return (
    <div className="side-pane">
      <div className="side-tabs" role="tablist" aria-label="Side pane" onKeyDown={onKeyDown}>
        {TABS.map((name) => (
          <button
            key={name}
            id={`side-tab-${name}`}
            type="button"
            role="tab"
            aria-selected={shown === name}
            aria-controls={`side-panel-${name}`}
            tabIndex={shown === name ? 0 : -1}
            disabled={name === 'Screen' && !canScreen}
            title={name === 'Screen' && !canScreen ? 'This host cannot capture the screen' : undefined}
            onClick={() => setTab(name)}
          >
            {name}
          </button>
        ))}
      </div>
      <div
        className="side-panel"
        id={`side-panel-${shown}`}
        role="tabpanel"
        aria-labelledby={`side-tab-${shown}`}
        data-tab={shown}
      >
        {shown === 'Details' ? (
          <>
            <PatternsPanel />
            <ExportPanel />
            <ChecksPanel />
          </>
        ) : (
          <ScreenPanel />
        )}
      </div>
    </div>
  );
}
