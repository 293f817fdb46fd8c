import { useCallback, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { attributeKey } from '../../shared/model/namespaces.js';
import type { Namespace } from '../../shared/model/namespaces.js';
import type { ApiAttribute } from '../../shared/api/schema.js';
import type { UiValue } from '../../shared/model/values.js';
import { nodeLabel } from '../model/labels.js';
import { displayValue, isExpandable, statesSummary, stringList, valueParts } from '../model/display.js';
import { useSlice, useStores } from '../app-context.js';
import { attributeText, groupAttributes, type SortKey } from '../stores/details-store.js';
import { BestLocator, useCopy } from './LocatorStatus.js';
import { Menu } from './Menu.js';

/** A value as people read it; lists and objects open into their parts. */
function ValueView({ value }: { value: UiValue }) {
  const list = stringList(value);
  if (list !== undefined) return <>{list}</>;
  if (!isExpandable(value)) return <>{displayValue(value)}</>;
  return (
    <details className="value-parts">
      <summary>{displayValue(value)}</summary>
      <dl>
        {valueParts(value).map(([key, part]) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>
              <ValueView value={part} />
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

interface CopyTarget {
  key: string;
  entry: ApiAttribute;
  at: { x: number; y: number };
  row: HTMLElement | null;
}

export function AttributesPanel() {
  const { details, settings } = useStores();
  const node = useSlice(details, (s) => s.node);
  const attributes = useSlice(details, (s) => s.attributes);
  const sort = useSlice(details, (s) => s.sort);
  const filter = useSlice(details, (s) => s.filter);
  const loading = useSlice(details, (s) => s.loading);
  const error = useSlice(details, (s) => s.error);
  const hideDerived = useSlice(settings, (s) => s.hideDerived);
  const shown = useMemo(
    () => (hideDerived ? attributes.filter((entry) => !entry.derived) : attributes),
    [attributes, hideDerived],
  );
  const groups = useMemo(() => groupAttributes(shown, sort, filter), [shown, sort, filter]);
  const states = useMemo(() => statesSummary(attributes), [attributes]);
  const copy = useCopy();
  const [menu, setMenu] = useState<CopyTarget | undefined>();
  const [activeKey, setActiveKey] = useState<string | undefined>();
  const tableRef = useRef<HTMLTableElement>(null);
  const closeMenu = useCallback(() => setMenu(undefined), []);

  const keys = groups.flatMap((group) =>
    group.entries.map((entry) => attributeKey(entry.namespace as Namespace, entry.name)),
  );
  const focusable = activeKey !== undefined && keys.includes(activeKey) ? activeKey : keys[0];

  const openMenu = (key: string, entry: ApiAttribute, anchor: HTMLElement) => {
    const box = anchor.getBoundingClientRect();
    setMenu({ key, entry, at: { x: box.left, y: box.bottom }, row: anchor.closest('tr') });
  };

  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, key: string, entry: ApiAttribute) => {
    const rows = [...(tableRef.current?.querySelectorAll<HTMLElement>('tr[data-key]') ?? [])];
    const index = rows.indexOf(event.currentTarget);
    let next: number | undefined;
    if (event.key === 'ArrowDown') next = Math.min(rows.length - 1, index + 1);
    else if (event.key === 'ArrowUp') next = Math.max(0, index - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = rows.length - 1;
    else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'c') {
      event.preventDefault();
      copy(attributeText(entry), `value of ${key}`);
      return;
    } else if (event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10')) {
      event.preventDefault();
      openMenu(key, entry, event.currentTarget);
      return;
    }
    if (next === undefined) return;
    event.preventDefault();
    const target = rows[next];
    if (target) {
      setActiveKey(target.dataset.key);
      target.focus();
    }
  };

  const header = (key: SortKey, title: string) => (
    <th scope="col" aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
      <button type="button" className="sort" onClick={() => details.getState().setSort(key)}>
        {title}
        {sort.key === key ? (sort.descending ? ' ▾' : ' ▴') : ''}
      </button>
    </th>
  );

  return (
    <section className="attributes-panel" aria-label="Attributes panel">
      <div className="toolbar element-header">
        <h2 className="panel-title">{node ? nodeLabel(node) : 'No node selected'}</h2>
        {node?.id ? (
          <span className="element-id" title="The element's developer id (its Id attribute)">
            Id <code>{node.id}</code>
          </span>
        ) : null}
        {node?.stale ? <span className="badge stale-badge">stale</span> : null}
        <BestLocator />
      </div>
      <div className="toolbar">
        {states ? (
          <span className="states" aria-label="States">
            {states}
          </span>
        ) : null}
        <input
          type="search"
          className="filter"
          placeholder="Filter attributes"
          aria-label="Filter attributes"
          value={filter}
          onChange={(e) => details.getState().setFilter(e.target.value)}
        />
        <label className="check" title="Leave out the aliases derived from structured values (Bounds.X ...)">
          <input
            type="checkbox"
            checked={hideDerived}
            onChange={(e) => settings.getState().update({ hideDerived: e.target.checked })}
          />
          Hide derived
        </label>
        <button type="button" disabled={!node} onClick={() => void details.getState().reload()}>
          Reload
        </button>
      </div>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="table-scroll">
        <table ref={tableRef} className="attributes" aria-label="Attributes" aria-busy={loading || undefined}>
          <thead>
            <tr>
              {header('name', 'Name')}
              {header('value', 'Value')}
              {header('type', 'Type')}
              <th scope="col">
                <span className="visually-hidden">Copy</span>
              </th>
            </tr>
          </thead>
          {groups.map((group) => (
            <tbody key={group.namespace}>
              <tr className="group">
                <th colSpan={4} scope="rowgroup">
                  {group.namespace}
                </th>
              </tr>
              {group.entries.map((entry) => {
                const key = attributeKey(entry.namespace as Namespace, entry.name);
                return (
                  <tr
                    key={`${entry.namespace}:${entry.name}`}
                    data-key={key}
                    className={entry.derived ? 'derived' : undefined}
                    tabIndex={key === focusable ? 0 : -1}
                    title="Ctrl+C copies the value; the menu key or Shift+F10 offers name, value and row"
                    onFocus={() => setActiveKey(key)}
                    onKeyDown={(event) => onRowKeyDown(event, key, entry)}
                    onContextMenu={(event) => {
                      event.preventDefault();
                      setMenu({ key, entry, at: { x: event.clientX, y: event.clientY }, row: event.currentTarget });
                    }}
                  >
                    <th scope="row" className="attr-name">
                      {key}
                      {entry.derived ? (
                        <span className="badge derived-badge" title="derived alias, computed by the runtime">
                          derived
                        </span>
                      ) : null}
                    </th>
                    <td className="attr-value" title={attributeText(entry)}>
                      <ValueView value={entry.value} />
                    </td>
                    <td className="attr-type">{entry.value.type}</td>
                    <td className="attr-copy">
                      <button
                        type="button"
                        tabIndex={-1}
                        aria-haspopup="menu"
                        aria-label={`Copy ${key}…`}
                        title="Copy the name, the value or the whole row (Ctrl+C on a row copies its value)"
                        onClick={(event) => openMenu(key, entry, event.currentTarget)}
                      >
                        Copy ▾
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          ))}
        </table>
      </div>
      {menu ? (
        <Menu
          label={`Copy ${menu.key}`}
          at={menu.at}
          onClose={closeMenu}
          returnFocus={menu.row}
          items={[
            { label: 'Copy value', run: () => copy(attributeText(menu.entry), `value of ${menu.key}`) },
            { label: 'Copy name', run: () => copy(menu.key, 'name') },
            {
              label: 'Copy row',
              run: () => copy(`${menu.key}\t${attributeText(menu.entry)}\t${menu.entry.value.type}`, 'row'),
            },
          ]}
        />
      ) : null}
    </section>
  );
}
