import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import { nodeLabel } from '../model/labels.js';
import { useSlice, useStores } from '../app-context.js';
import type { TreeRow } from '../stores/tree-store.js';
import { TreeFilterStatus } from './TreeFilterStatus.js';
import { roleFamily, roleGlyph } from '../model/roles.js';

export const ROW_HEIGHT = 22;
/** How long a highlight asked for from the UI stays on screen. */
export const HIGHLIGHT_MS = 3000;

export function TreeView() {
  const { tree, client, screen } = useStores();
  const rows = useSlice(tree, (s) => s.rows);
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
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [scrollRequest, virtualizer, tree]);

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
    }
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
      <div
        ref={parentRef}
        className="tree"
        role="tree"
        aria-label="Accessibility tree"
        tabIndex={0}
        aria-activedescendant={selectedRow ? `treeitem-${selectedIndex}` : undefined}
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
                onSelect={onSelect}
                onToggle={onToggle}
              />
            );
          })}
        </div>
      </div>
      <TreeFooter
        onHighlight={() =>
          selectedId &&
          void client
            .highlight({ runtimeIds: [selectedId], durationMs: HIGHLIGHT_MS })
            .then(({ rects }) => screen.getState().showHighlighted(rects, HIGHLIGHT_MS))
        }
      />
    </div>
  );
}

function TreeFooter({ onHighlight }: { onHighlight: () => void }) {
  const { tree } = useStores();
  const count = useSlice(tree, (s) => s.rows.length);
  const loaded = useSlice(tree, (s) => (s.version >= 0 ? s.nodes.size : 0));
  const selectedId = useSlice(tree, (s) => s.selectedId);
  return (
    <div className="tree-footer">
      <span>
        {count} rows · {loaded} loaded
      </span>
      <button type="button" disabled={!selectedId} onClick={onHighlight}>
        Highlight
      </button>
    </div>
  );
}

/** One row; memoized so that scrolling re-renders only the rows that come into view. */
const TreeRowView = memo(function TreeRowView({
  row,
  index,
  start,
  selected,
  onSelect,
  onToggle,
}: {
  row: TreeRow;
  index: number;
  start: number;
  selected: boolean;
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
      aria-description={row.node.stale ? 'stale: this node no longer exists' : undefined}
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
      </span>
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
