import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

/** One tab: its id (kept while the tab list changes), its title and what it shows. */
export interface TabSpec {
  id: string;
  title: string;
  render: () => ReactNode;
  /** false: unmounted while hidden (a view that works only while seen, such as the live Screen). */
  keepMounted?: boolean;
}

/**
 * Tabs as the ARIA pattern has them (tablist, tab, tabpanel; arrows, Home and End move between tabs). Only the
 * chosen panel is rendered. A place that shows several views (the side pane, the console area) is a list of
 * TabSpec: adding a view is adding an entry. A panel is rendered when first chosen and then kept (hidden while
 * another is shown), so that a view keeps its state (an editor, a scroll position) across tab changes.
 */
export function Tabs({ label, tabs, className }: { label: string; tabs: readonly TabSpec[]; className?: string }) {
  const base = useId();
  const [chosen, setChosen] = useState(tabs[0]?.id);
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const current = tabs.find((tab) => tab.id === chosen) ?? tabs[0];
  if (!current) return null;
  if (!opened.has(current.id)) setOpened(new Set([...opened, current.id]));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.id === current.id);
    let next: number | undefined;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[next]!;
    setChosen(tab.id);
    buttons.current.get(tab.id)?.focus();
  };

  return (
    <div className={`tabs ${className ?? ''}`}>
      <div className="tab-list" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) buttons.current.set(tab.id, element);
              else buttons.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.id}`}
            aria-selected={tab.id === current.id}
            aria-controls={`${base}-panel-${tab.id}`}
            tabIndex={tab.id === current.id ? 0 : -1}
            onClick={() => setChosen(tab.id)}
          >
            {tab.title}
          </button>
        ))}
      </div>
      {tabs
        .filter((tab) => tab.id === current.id || (opened.has(tab.id) && tab.keepMounted !== false))
        .map((tab) => (
          <div
            key={tab.id}
            className="tab-panel"
            role="tabpanel"
            id={`${base}-panel-${tab.id}`}
            aria-labelledby={`${base}-tab-${tab.id}`}
            hidden={tab.id !== current.id}
          >
            {tab.render()}
          </div>
        ))}
    </div>
  );
}
