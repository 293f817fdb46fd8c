import { useState, type ReactNode } from 'react';
import { EventsPanel } from './EventsPanel.js';

/** The bottom pane's tabs: each stays mounted while another shows (the console keeps its editor). */
export function BottomPane({ console }: { console: ReactNode }) {
  const tabs: ReadonlyArray<{ id: string; label: string; content: ReactNode }> = [
    { id: 'xpath', label: 'XPath console', content: console },
    { id: 'events', label: 'Events', content: <EventsPanel /> },
  ];
  const [active, setActive] = useState('xpath');
  return (
    <div className="bottom-pane">
      <div role="tablist" aria-label="Bottom pane" className="bottom-tabs">
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`bottom-tab-${tab.id}`}
            aria-selected={active === tab.id}
            aria-controls={`bottom-panel-${tab.id}`}
            onClick={() => setActive(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`bottom-panel-${tab.id}`}
          aria-labelledby={`bottom-tab-${tab.id}`}
          hidden={active !== tab.id}
          className="bottom-panel"
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}
