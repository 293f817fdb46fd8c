import { lazy, Suspense, useEffect, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { useSlice, useStores } from '../app-context.js';
import { AccessibilityOff } from './AccessibilityOff.js';
import { AttributesPanel } from './AttributesPanel.js';
import { SidePane } from './SidePane.js';
import { SnapshotBanner } from './SnapshotBanner.js';
import { SnapshotTools } from './SnapshotTools.js';
import { StatusBar } from './StatusBar.js';
import { TreeView } from './TreeView.js';
import { BottomPane } from './BottomPane.js';
import { nodeLabel } from '../model/labels.js';
import { selectAccessibilityOn, selectCapabilities } from '../stores/session-store.js';

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

function useDarkTheme(): boolean {
  const { settings } = useStores();
  const theme = useSlice(settings, (s) => s.theme);
  const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
  const [systemDark, setSystemDark] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const listener = (e: MediaQueryListEvent) => setSystemDark(e.matches);
    query.addEventListener('change', listener);
    return () => query.removeEventListener('change', listener);
  }, [query]);
  const dark = theme === 'dark' || (theme === 'system' && systemDark);
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }, [dark]);
  return dark;
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
  const { session, settings, tree } = useStores();
  const picking = useSlice(session, (s) => s.picking);
  const pickByClick = useSlice(session, (s) => s.pickByClick);
  const pickNode = useSlice(session, (s) => s.pickNode);
  const pickDepth = useSlice(session, (s) => s.pickDepth);
  const pickStackSize = useSlice(session, (s) => s.pickStackSize);
  const followFocus = useSlice(settings, (s) => s.followFocus);
  const canPick = useSlice(session, (s) => selectCapabilities(s).pick);
  const canFollowFocus = useSlice(session, (s) => selectCapabilities(s).followFocus);
  const theme = useSlice(settings, (s) => s.theme);
  const pick = async () => {
    if (picking) {
      const node = await session.getState().stopPick(true);
      if (node) await tree.getState().reveal(node.runtimeId);
    } else await session.getState().startPick();
  };
  return (
    <header className="top-bar">
      <h1 className="app-title">PlatynUI Inspector</h1>
      <button
        type="button"
        aria-pressed={picking}
        disabled={!canPick}
        onClick={() => void pick()}
        title="Pick an element on screen (a click or F8 selects, Escape cancels, ↑/↓ or the wheel cycle the stack)"
      >
        {picking ? (pickByClick ? 'Picking… (click or F8 selects)' : 'Picking… (F8 selects)') : 'Pick'}
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
    </header>
  );
}

function Panel({ children, className, style }: { children: ReactNode; className: string; style?: object }) {
  return (
    <div className={className} style={style}>
      {children}
    </div>
  );
}

export function App({ onReconnect }: { onReconnect: () => void }) {
  const { session, settings, tree } = useStores();
  const dark = useDarkTheme();
  const consoleShown = useTreeShown();
  const connected = useSlice(session, (s) => s.info !== undefined);
  const accessibilityOn = useSlice(session, selectAccessibilityOn);
  const connection = useSlice(session, (s) => s.connection);
  const error = useSlice(session, (s) => s.error);
  const picking = useSlice(session, (s) => s.picking);
  const panels = useSlice(settings, (s) => s.panels);

  // Pick mode keys: F8/Enter selects, Escape cancels, arrows and the wheel cycle the stack.
  useEffect(() => {
    if (!picking) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') void session.getState().stopPick(false);
      else if (event.key === 'F8' || event.key === 'Enter') {
        void session
          .getState()
          .stopPick(true)
          .then((node) => node && tree.getState().reveal(node.runtimeId));
      } else if (event.key === 'ArrowUp') void session.getState().cyclePick(-1);
      else if (event.key === 'ArrowDown') void session.getState().cyclePick(1);
      else return;
      event.preventDefault();
      event.stopPropagation();
    };
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      void session.getState().cyclePick(event.deltaY > 0 ? 1 : -1);
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('wheel', onWheel, { passive: false, capture: true });
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('wheel', onWheel, true);
    };
  }, [picking, session, tree]);

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
    <div className="app">
      <TopBar dark={dark} />
      <SnapshotBanner />
      <div className="workspace">
        <Panel className="pane-tree" style={{ width: panels.tree }}>
          <TreeView />
        </Panel>
        <Splitter panel="tree" orientation="vertical" min={200} max={1400} label="Resize tree" />
        <div className="pane-right">
          <div className="pane-details">
            <Panel className="pane-attributes">
              <AttributesPanel />
            </Panel>
            <Splitter panel="details" orientation="vertical" min={220} max={900} invert label="Resize patterns" />
            <Panel className="pane-side" style={{ width: panels.details }}>
              <SidePane />
            </Panel>
          </div>
          <Splitter panel="console" orientation="horizontal" min={120} max={900} invert label="Resize console" />
          <Panel className="pane-console" style={{ height: panels.console }}>
            <BottomPane
              console={
                consoleShown ? (
                  <Suspense fallback={<ConsoleLoading />}>
                    <XPathConsole dark={dark} />
                  </Suspense>
                ) : (
                  <ConsoleLoading />
                )
              }
            />
          </Panel>
        </div>
      </div>
      <StatusBar />
    </div>
  );
}
