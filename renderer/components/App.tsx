import {
  lazy,
  Suspense,
  useEffect,
  useMemo,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import { AboutButton } from './About.js';
import { Tabs, type TabSpec } from './Tabs.js';
import { useSlice, useStores } from '../app-context.js';
import { AccessibilityOff } from './AccessibilityOff.js';
import { AttributesPanel } from './AttributesPanel.js';
import { SidePane } from './SidePane.js';
import { SnapshotBanner } from './SnapshotBanner.js';
import { SnapshotTools } from './SnapshotTools.js';
import { StatusBar } from './StatusBar.js';
import { TreeView } from './TreeView.js';
import { EventsPanel } from './EventsPanel.js';
import { RecorderPanel } from './RecorderPanel.js';
import { nodeLabel } from '../model/labels.js';
import { selectAccessibilityOn, selectCapabilities } from '../stores/host-state-store.js';

// The console brings Monaco (most of the page's code): it loads on its own, once the tree is on screen.
const XPathConsole = lazy(() => import('./XPathConsole.js').then((module) => ({ default: module.XPathConsole })));

/** True once the tree shows more than its root (or failed, or 3 s passed): the heavy parts may load then. */
function useTreeShown(): boolean {
  const { tree } = useStores();
  const ready = useSlice(tree, (s) => s.rows.length > 1 || s.lastError !== undefined);
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLate(true), 3000);
    return () => clearTimeout(timer);
  }, []);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if ((ready || late) && !shown) requestAnimationFrame(() => setShown(true));
  }, [ready, late, shown]);
  return shown;
}

function ConsoleLoading() {
  return (
    <section className="xpath-console" aria-label="XPath console" aria-busy="true">
      <p className="muted">Loading the XPath editor…</p>
    </section>
  );
}

/** Whether a media query matches, following its changes. */
function useMediaQuery(text: string): boolean {
  const query = useMemo(() => (typeof matchMedia === 'function' ? matchMedia(text) : undefined), [text]);
  const [matches, setMatches] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const listener = (e: MediaQueryListEvent) => setMatches(e.matches);
    query.addEventListener('change', listener);
    return () => query.removeEventListener('change', listener);
  }, [query]);
  return matches;
}

function useDarkTheme(): boolean {
  const { settings } = useStores();
  const theme = useSlice(settings, (s) => s.theme);
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)');
  const dark = theme === 'dark' || (theme === 'system' && systemDark);
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }, [dark]);
  return dark;
}

/** Below this width the side pane's views become tabs (and panes give way by priority: see styles.css). */
export const NARROW_WIDTH = 1200;

function useNarrow(): boolean {
  return useMediaQuery(`(max-width: ${NARROW_WIDTH - 1}px)`);
}

/** The views under the details (the XPath console first); with more than one they are tabs. */
function consoleViews(dark: boolean, shown: boolean): TabSpec[] {
  return [
    {
      id: 'xpath',
      title: 'XPath',
      render: () =>
        shown ? (
          <Suspense fallback={<ConsoleLoading />}>
            <XPathConsole dark={dark} />
          </Suspense>
        ) : (
          <ConsoleLoading />
        ),
    },
    { id: 'events', title: 'Events', render: () => <EventsPanel /> },
    { id: 'recorder', title: 'Recorder', render: () => <RecorderPanel /> },
  ];
}

/** The panes F6 moves between, in order, and what gets the focus in each (the first that is there). */
const PANE_FOCUS: ReadonlyArray<readonly [pane: string, targets: string]> = [
  ['.pane-tree', '[role=tree]'],
  ['.pane-attributes', 'tr[tabindex="0"], input'],
  ['.pane-side', '[role=tab][aria-selected=true], button:not([disabled]), input, select'],
  ['.pane-console', '[role=tab][aria-selected=true], textarea'],
];

/** F6 and Shift+F6: the focus goes to the next (previous) pane. */
export function focusNextPane(backwards: boolean): void {
  const panes = PANE_FOCUS.map(([pane, targets]) => ({ pane: document.querySelector(pane), targets })).filter(
    (entry): entry is { pane: Element; targets: string } => entry.pane !== null,
  );
  if (!panes.length) return;
  const current = panes.findIndex(({ pane }) => pane.contains(document.activeElement));
  for (let step = 1; step <= panes.length; step++) {
    const index = (current + (backwards ? -step : step) + panes.length * 2) % panes.length;
    const { pane, targets } = panes[index]!;
    const target = [...pane.querySelectorAll<HTMLElement>(targets)].find((element) => !element.closest('[hidden]'));
    if (target) {
      target.focus();
      return;
    }
  }
}

/** A draggable, keyboard-operable separator that resizes the panel `panel` (remembered in the settings). */
function Splitter({
  panel,
  orientation,
  min,
  max,
  invert = false,
  label,
}: {
  panel: string;
  orientation: 'vertical' | 'horizontal';
  min: number;
  max: number;
  invert?: boolean;
  label: string;
}) {
  const { settings } = useStores();
  const size = useSlice(settings, (s) => s.panels[panel] ?? min);
  const clamp = (v: number) => Math.max(min, Math.min(max, v));
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    const start = orientation === 'vertical' ? event.clientX : event.clientY;
    const initial = size;
    const target = event.currentTarget;
    target.setPointerCapture(event.pointerId);
    const move = (e: globalThis.PointerEvent) => {
      const delta = (orientation === 'vertical' ? e.clientX : e.clientY) - start;
      settings.getState().setPanel(panel, clamp(initial + (invert ? -delta : delta)));
    };
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 50 : 10;
    const grow = orientation === 'vertical' ? ['ArrowRight'] : ['ArrowDown'];
    const shrink = orientation === 'vertical' ? ['ArrowLeft'] : ['ArrowUp'];
    let delta = 0;
    if (grow.includes(event.key)) delta = step;
    else if (shrink.includes(event.key)) delta = -step;
    else return;
    event.preventDefault();
    settings.getState().setPanel(panel, clamp(size + (invert ? -delta : delta)));
  };
  return (
    <div
      className={`splitter ${orientation}`}
      role="separator"
      aria-orientation={orientation}
      aria-label={label}
      aria-valuenow={size}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  );
}

function TopBar({ dark }: { dark: boolean }) {
  const { hostState, settings, tree } = useStores();
  const picking = useSlice(hostState, (s) => s.picking);
  const pickByClick = useSlice(hostState, (s) => s.pickByClick);
  const pickNode = useSlice(hostState, (s) => s.pickNode);
  const pickDepth = useSlice(hostState, (s) => s.pickDepth);
  const pickStackSize = useSlice(hostState, (s) => s.pickStackSize);
  const followFocus = useSlice(settings, (s) => s.followFocus);
  const canPick = useSlice(hostState, (s) => selectCapabilities(s).pick);
  const canFollowFocus = useSlice(hostState, (s) => selectCapabilities(s).followFocus);
  const theme = useSlice(settings, (s) => s.theme);
  const pick = async () => {
    if (picking) {
      const node = await hostState.getState().stopPick(true);
      if (node) await tree.getState().reveal(node.runtimeId);
    } else await hostState.getState().startPick();
  };
  return (
    <header className="top-bar">
      <h1 className="app-title">PlatynUI Inspector</h1>
      <button
        type="button"
        className="pick-button"
        aria-pressed={picking}
        aria-keyshortcuts="F8"
        disabled={!canPick}
        onClick={() => void pick()}
        title="Pick an element on screen: F8 starts; a click or F8 selects, Escape cancels, ↑/↓ or the wheel cycle the stack"
      >
        {picking ? (pickByClick ? 'Picking… (click or F8 selects)' : 'Picking… (F8 selects)') : 'Pick (F8)'}
      </button>
      {picking ? (
        <span className="pick-info" aria-live="polite">
          {pickNode ? `${nodeLabel(pickNode)} (${pickDepth + 1}/${pickStackSize})` : 'Point at an element'}
        </span>
      ) : null}
      <label className="check">
        <input
          type="checkbox"
          checked={followFocus}
          disabled={!canFollowFocus}
          onChange={(e) => settings.getState().update({ followFocus: e.target.checked })}
        />
        Follow focus
      </label>
      <SnapshotTools />
      <span className="spacer" />
      <label className="check">
        Theme
        <select
          value={theme}
          onChange={(e) => settings.getState().update({ theme: e.target.value as 'system' | 'light' | 'dark' })}
        >
          <option value="system">System ({dark ? 'dark' : 'light'})</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
      <AboutButton />
    </header>
  );
}

function ConsoleArea({ dark, shown }: { dark: boolean; shown: boolean }) {
  const views = consoleViews(dark, shown);
  return views.length > 1 ? <Tabs label="Console" tabs={views} className="console-tabs" /> : <>{views[0]!.render()}</>;
}

function Panel({ children, className, style }: { children: ReactNode; className: string; style?: object }) {
  return (
    <div className={className} style={style}>
      {children}
    </div>
  );
}

export function App({ onReconnect }: { onReconnect: () => void }) {
  const { hostState, settings, tree } = useStores();
  const dark = useDarkTheme();
  const consoleShown = useTreeShown();
  const connected = useSlice(hostState, (s) => s.info !== undefined);
  const accessibilityOn = useSlice(hostState, selectAccessibilityOn);
  const connection = useSlice(hostState, (s) => s.connection);
  const error = useSlice(hostState, (s) => s.error);
  const picking = useSlice(hostState, (s) => s.picking);
  const panels = useSlice(settings, (s) => s.panels);
  const narrow = useNarrow();
  const canPick = useSlice(hostState, (s) => selectCapabilities(s).pick);

  // Keys of the whole window: F6 moves between panes, F8 starts picking.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if (event.key === 'F6' && !event.ctrlKey && !event.altKey) focusNextPane(event.shiftKey);
      else if (event.key === 'F8' && !hostState.getState().picking && canPick) void hostState.getState().startPick();
      else return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [hostState, canPick]);

  // Pick mode keys: F8/Enter selects, Escape cancels, arrows and the wheel cycle the stack.
  useEffect(() => {
    if (!picking) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') void hostState.getState().stopPick(false);
      else if (event.key === 'F8' || event.key === 'Enter') {
        void hostState
          .getState()
          .stopPick(true)
          .then((node) => node && tree.getState().reveal(node.runtimeId));
      } else if (event.key === 'ArrowUp') void hostState.getState().cyclePick(-1);
      else if (event.key === 'ArrowDown') void hostState.getState().cyclePick(1);
      else return;
      event.preventDefault();
      event.stopPropagation();
    };
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      void hostState.getState().cyclePick(event.deltaY > 0 ? 1 : -1);
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('wheel', onWheel, { passive: false, capture: true });
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('wheel', onWheel, true);
    };
  }, [picking, hostState, tree]);

  if (connection === 'closed' && !connected) {
    return (
      <main className="a11y-off">
        <h1>Not connected</h1>
        <p role="alert">{error ?? 'The connection to the inspector host is closed.'}</p>
        <button type="button" onClick={onReconnect}>
          Reconnect
        </button>
      </main>
    );
  }
  if (!accessibilityOn) {
    return (
      <div className="app">
        <AccessibilityOff onEnabled={onReconnect} />
        <StatusBar />
      </div>
    );
  }
  return (
    <div className={`app${narrow ? ' narrow' : ''}`}>
      <TopBar dark={dark} />
      <SnapshotBanner />
      <div className="workspace">
        <Panel className="pane-tree" style={{ width: `min(${panels.tree}px, 34vw)` }}>
          <TreeView />
        </Panel>
        <Splitter panel="tree" orientation="vertical" min={200} max={1400} label="Resize tree" />
        <div className="pane-right">
          <div className="pane-details">
            <Panel className="pane-attributes">
              <AttributesPanel />
            </Panel>
            <Splitter panel="details" orientation="vertical" min={220} max={900} invert label="Resize patterns" />
            <Panel className="pane-side" style={{ width: `min(${panels.details}px, 30vw)` }}>
              <SidePane narrow={narrow} />
            </Panel>
          </div>
          <Splitter panel="console" orientation="horizontal" min={120} max={900} invert label="Resize console" />
          <Panel className="pane-console" style={{ height: `min(${panels.console}px, 50vh)` }}>
            <ConsoleArea dark={dark} shown={consoleShown} />
          </Panel>
        </div>
      </div>
      <StatusBar />
    </div>
  );
}
