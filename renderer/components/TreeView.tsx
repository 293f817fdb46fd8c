import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import { nodeLabel } from '../model/labels.js';
import { useSlice, useStores } from '../app-context.js';
import type { TreeRow, TreeState } from '../stores/tree-store.js';
import { TreeFilterStatus } from './TreeFilterStatus.js';
import { roleFamily, roleGlyph } from '../model/roles.js';
import { isOwnWindowName } from '../model/own-windows.js';
import { placementText } from '../model/placement.js';
import { selectCapabilities } from '../stores/host-state-store.js';

export { HIGHLIGHT_MS } from '../model/placement.js';
export const ROW_HEIGHT = 22;
/** Letters typed within this long of each other make one type-to-jump prefix. */
const TYPE_AHEAD_MS = 700;

/**
 * What tells alike rows apart, after the label: the developer id, the first named child (a table row's first
 * cell, an application's window title) when the row has no name, an application's process id, and the number of
 * children when known.
 */
export function secondaryText(state: Pick<TreeState, 'nodes' | 'children'>, row: TreeRow): string {
  const { node } = row;
  const parts: string[] = [];
  if (node.id) parts.push(`#${node.id}`);
  if (!node.name || node.namespace === 'app') {
    const kids = state.children.get(row.id) ?? [];
    const firstNamed = kids.map((kid) => state.nodes.get(kid)).find((kid) => kid?.name);
    if (firstNamed) parts.push(`“${firstNamed.name}”`);
  }
  if (node.processId !== undefined) parts.push(`pid ${node.processId}`);
  const count = state.children.get(row.id)?.length ?? node.childCount;
  if (count !== undefined && count > 0) parts.push(`${count} ${count === 1 ? 'child' : 'children'}`);
  return parts.join(' · ');
}

/**
 * A window titled like the inspector, or an application with such a window among its loaded children (one opened
 * after the start, whose title came later, is marked as soon as the tree holds it).
 */
export function showsInspector(state: Pick<TreeState, 'nodes' | 'children'>, row: TreeRow): boolean {
  if (row.node.namespace !== 'app') return isOwnWindowName(row.node.name);
  return (state.children.get(row.id) ?? []).some((kid) => isOwnWindowName(state.nodes.get(kid)?.name ?? ''));
}

/** The next row (from `from`, wrapping) whose label or name starts with `prefix` (case-insensitive). */
export function rowStartingWith(rows: readonly TreeRow[], prefix: string, from: number): number {
  const wanted = prefix.toLowerCase();
  for (let i = 0; i < rows.length; i++) {
    const index = (from + i) % rows.length;
    const node = rows[index]!.node;
    if (node.name.toLowerCase().startsWith(wanted) || nodeLabel(node).toLowerCase().startsWith(wanted)) return index;
  }
  return -1;
}

export function TreeView() {
  const { tree, hostState, highlight, screen } = useStores();
  const rows = useSlice(tree, (s) => s.rows);
  // Secondary texts read loaded children: they follow every change of the tree.
  useSlice(tree, (s) => s.version);
  const ownApplications = useSlice(hostState, (s) => s.ownApplications);
  const typed = useRef({ text: '', at: 0 });
  const selectedId = useSlice(tree, (s) => s.selectedId);
  const selectedIndex = useSlice(tree, (s) => s.selectedIndex);
  const scrollRequest = useSlice(tree, (s) => s.scrollRequest);
  const filter = useSlice(tree, (s) => s.filter);
  const expandingAll = useSlice(tree, (s) => s.expandingAll);
  const parentRef = useRef<HTMLDivElement>(null);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    getItemKey: (index) => rows[index]?.id ?? index,
  });

  useEffect(() => {
    if (!scrollRequest) return;
    const index = tree.getState().rows.findIndex((row) => row.id === scrollRequest.id);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: scrollRequest.align });
  }, [scrollRequest, virtualizer, tree]);

  // Rows in view that are told apart by their first named child (unnamed rows, applications) get their children
  // read, without expanding them.
  const prefetched = useRef(new Set<string>());
  const visible = virtualizer.getVirtualItems();
  useEffect(() => {
    const state = tree.getState();
    for (const item of visible) {
      const row = state.rows[item.index];
      if (!row || (row.node.name && row.node.namespace !== 'app') || !row.node.hasChildren) continue;
      if (state.children.has(row.id) || prefetched.current.has(row.id)) continue;
      if (prefetched.current.size > 20_000) prefetched.current.clear();
      prefetched.current.add(row.id);
      void state.loadChildren(row.id).catch(() => undefined);
    }
  }, [visible, tree]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((parentRef.current?.clientHeight ?? 220) / ROW_HEIGHT) - 1);
    const key = event.key;
    if (
      ['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown', '*', 'Enter'].includes(
        key,
      )
    ) {
      event.preventDefault();
      void tree.getState().key(key, page);
      return;
    }
    // Type-to-jump: letters typed in quick succession select the next row starting with them.
    if (key.length !== 1 || event.ctrlKey || event.altKey || event.metaKey || (key === ' ' && !typed.current.text))
      return;
    event.preventDefault();
    const now = Date.now();
    const continuing = now - typed.current.at < TYPE_AHEAD_MS;
    typed.current = { text: continuing ? typed.current.text + key : key, at: now };
    const state = tree.getState();
    const start = Math.max(0, state.selectedIndex + (continuing ? 0 : 1));
    const found = rowStartingWith(state.rows, typed.current.text, start);
    if (found >= 0) state.select(state.rows[found]!.id, { scroll: true });
  };

  const selectedRow = selectedIndex >= 0 ? rows[selectedIndex] : undefined;
  const onSelect = useCallback(
    (id: string) => {
      tree.getState().select(id);
      parentRef.current?.focus();
    },
    [tree],
  );
  const onToggle = useCallback((id: string) => void tree.getState().toggle(id), [tree]);
  // The Screen panel outlines the row under the pointer (read from the row's data attribute: rows stay memoized).
  const hoveredRow = useRef<string | undefined>(undefined);
  const hoverRow = (id: string | undefined) => {
    if (id === hoveredRow.current) return;
    hoveredRow.current = id;
    if (screen.getState().visible || !id) void screen.getState().showHoveredRow(id);
  };

  return (
    <div className="tree-panel">
      <div className="toolbar">
        <input
          type="search"
          className="filter"
          placeholder="Filter loaded nodes"
          aria-label="Filter tree"
          value={filter}
          onChange={(e) => tree.getState().setFilter(e.target.value)}
        />
        <button
          type="button"
          title="Reload the selected node's children"
          disabled={!selectedId}
          onClick={() => selectedId && void tree.getState().refresh(selectedId, false)}
        >
          Refresh
        </button>
        <button
          type="button"
          title="Reload the selected node's whole loaded subtree"
          disabled={!selectedId}
          onClick={() => selectedId && void tree.getState().refresh(selectedId, true)}
        >
          Refresh subtree
        </button>
      </div>
      <TreeFilterStatus />
      {rows.length === 0 ? <ColdStart /> : null}
      <div
        ref={parentRef}
        className="tree"
        role="tree"
        aria-label="Accessibility tree"
        tabIndex={0}
        aria-activedescendant={selectedRow ? `treeitem-${selectedIndex}` : undefined}
        aria-keyshortcuts="F6"
        aria-busy={expandingAll || undefined}
        onKeyDown={onKeyDown}
        onMouseOver={(event) =>
          hoverRow((event.target as HTMLElement).closest<HTMLElement>('[data-runtime-id]')?.dataset.runtimeId)
        }
        onMouseLeave={() => hoverRow(undefined)}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <TreeRowView
                key={item.key}
                row={row}
                index={item.index}
                start={item.start}
                selected={row.id === selectedId}
                secondary={secondaryText(tree.getState(), row)}
                own={ownApplications.has(row.id) || showsInspector(tree.getState(), row)}
                onSelect={onSelect}
                onToggle={onToggle}
              />
            );
          })}
        </div>
      </div>
      <TreeFooter onHighlight={() => selectedId && void highlight.getState().outline(selectedId)} />
    </div>
  );
}

/** Until the first rows are there: what the inspector is waiting for, in words. */
function ColdStart() {
  const { hostState, tree } = useStores();
  const connection = useSlice(hostState, (s) => s.connection);
  const connected = useSlice(hostState, (s) => s.info !== undefined);
  const error = useSlice(tree, (s) => s.lastError);
  const filtering = useSlice(tree, (s) => s.filter.trim() !== '');
  if (filtering || connection === 'closed') return null;
  return (
    <div className="cold-start" aria-live="polite">
      {error ? (
        <span className="error">The desktop could not be read: {error}</span>
      ) : (
        <>
          <progress aria-label={connected ? 'Reading the desktop' : 'Connecting'} />
          {connected ? 'Reading the desktop…' : 'Connecting to the inspector host…'}
        </>
      )}
    </div>
  );
}

function TreeFooter({ onHighlight }: { onHighlight: () => void }) {
  const { tree, settings, hostState, highlight } = useStores();
  const count = useSlice(tree, (s) => s.rows.length);
  const loaded = useSlice(tree, (s) => (s.version >= 0 ? s.nodes.size : 0));
  const selectedId = useSlice(tree, (s) => s.selectedId);
  const follow = useSlice(settings, (s) => s.highlightSelection);
  const canHighlight = useSlice(hostState, (s) => selectCapabilities(s).highlight);
  const placement = useSlice(highlight, (s) => s.placement);
  const error = useSlice(highlight, (s) => s.error);
  return (
    <div className="tree-footer">
      <div className="tree-footer-line">
        <span>
          {count} rows · {loaded} loaded
        </span>
        <label className="check" title="Outline the selected element on screen">
          <input
            type="checkbox"
            checked={follow}
            disabled={!canHighlight}
            onChange={(e) => settings.getState().update({ highlightSelection: e.target.checked })}
          />
          Highlight selection
        </label>
        <button type="button" disabled={!selectedId || !canHighlight} onClick={onHighlight}>
          Highlight
        </button>
      </div>
      <p
        className={`placement ${placement?.kind === 'on screen' ? 'muted' : 'warning'}`}
        role="note"
        aria-live="polite"
        aria-label="On screen"
      >
        {error ? `Highlight failed: ${error}` : placement ? placementText(placement) : ''}
      </p>
    </div>
  );
}

/** One row; memoized so that scrolling re-renders only the rows that come into view. */
const TreeRowView = memo(function TreeRowView({
  row,
  index,
  start,
  selected,
  secondary,
  own,
  onSelect,
  onToggle,
}: {
  row: TreeRow;
  index: number;
  start: number;
  selected: boolean;
  secondary: string;
  own: boolean;
  onSelect: (id: string) => void;
  onToggle: (id: string) => void;
}) {
  const label = nodeLabel(row.node);
  const family = roleFamily(row.node.role);
  return (
    <div
      id={`treeitem-${index}`}
      role="treeitem"
      aria-level={row.level}
      aria-expanded={row.expanded}
      aria-selected={selected}
      aria-setsize={row.setSize}
      aria-posinset={row.posInSet}
      aria-label={label}
      aria-description={
        [row.node.stale ? 'stale: this node no longer exists' : '', own ? 'this inspector' : '', secondary]
          .filter(Boolean)
          .join('; ') || undefined
      }
      aria-busy={row.loading || undefined}
      data-runtime-id={row.id}
      className={`row${selected ? ' selected' : ''}${row.node.stale ? ' stale' : ''}`}
      style={{ transform: `translateY(${start}px)`, height: ROW_HEIGHT, paddingLeft: (row.level - 1) * 14 + 4 }}
      onClick={() => onSelect(row.id)}
      onDoubleClick={() => row.expanded !== undefined && onToggle(row.id)}
    >
      <span
        className="twisty"
        aria-hidden="true"
        onClick={(e) => {
          e.stopPropagation();
          if (row.expanded !== undefined) onToggle(row.id);
        }}
      >
        {row.expanded === undefined ? '' : row.loading ? '◌' : row.expanded ? '▾' : '▸'}
      </span>
      <span className={`icon fam-${family}`} aria-hidden="true">
        {roleGlyph(row.node.role)}
      </span>
      <span className="label">
        <span className="role">{label.split(' "')[0]}</span>
        {row.node.name ? <span className="name"> "{row.node.name}"</span> : null}
        {secondary ? <span className="secondary"> {secondary}</span> : null}
      </span>
      {own ? (
        <span className="badge own-badge" title="This window shows the inspector itself" aria-hidden="true">
          this inspector
        </span>
      ) : null}
      {row.node.stale ? (
        <span className="badge stale-badge" aria-hidden="true">
          stale
        </span>
      ) : null}
      {row.error ? (
        <span className="badge error-badge" title={row.error} aria-hidden="true">
          !
        </span>
      ) : null}
    </div>
  );
});
