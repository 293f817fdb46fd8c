import { useMemo } from 'react';
import { attributeKey } from '../../shared/model/namespaces.js';
import type { Namespace } from '../../shared/model/namespaces.js';
import { nodeLabel } from '../model/labels.js';
import { useSlice, useStores } from '../app-context.js';
import { attributeText, groupAttributes, type SortKey } from '../stores/details-store.js';
import { copyText } from './clipboard.js';

export function AttributesPanel() {
  const { details, session } = useStores();
  const node = useSlice(details, (s) => s.node);
  const attributes = useSlice(details, (s) => s.attributes);
  const sort = useSlice(details, (s) => s.sort);
  const filter = useSlice(details, (s) => s.filter);
  const loading = useSlice(details, (s) => s.loading);
  const error = useSlice(details, (s) => s.error);
  const groups = useMemo(() => groupAttributes(attributes, sort, filter), [attributes, sort, filter]);

  const copy = (text: string, what: string) =>
    void copyText(text).then(
      () => session.getState().say(`Copied ${what}`),
      (e: unknown) => session.getState().say(`Copy failed: ${String(e)}`, 'error'),
    );

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
      <div className="toolbar">
        <h2 className="panel-title">{node ? nodeLabel(node) : 'No node selected'}</h2>
        {node?.stale ? <span className="badge stale-badge">stale</span> : null}
        <input
          type="search"
          className="filter"
          placeholder="Filter attributes"
          aria-label="Filter attributes"
          value={filter}
          onChange={(e) => details.getState().setFilter(e.target.value)}
        />
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
        <table className="attributes" aria-label="Attributes" aria-busy={loading || undefined}>
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
                const value = attributeText(entry);
                return (
                  <tr key={`${entry.namespace}:${entry.name}`} className={entry.derived ? 'derived' : undefined}>
                    <th scope="row" className="attr-name">
                      {key}
                      {entry.derived ? (
                        <span className="badge derived-badge" title="derived alias, computed by the runtime">
                          derived
                        </span>
                      ) : null}
                    </th>
                    <td className="attr-value">{value}</td>
                    <td className="attr-type">{entry.value.type}</td>
                    <td className="attr-copy">
                      <button type="button" aria-label={`Copy name ${key}`} onClick={() => copy(key, 'name')}>
                        N
                      </button>
                      <button type="button" aria-label={`Copy value of ${key}`} onClick={() => copy(value, 'value')}>
                        V
                      </button>
                      <button
                        type="button"
                        aria-label={`Copy row ${key}`}
                        onClick={() => copy(`${key}\t${value}\t${entry.value.type}`, 'row')}
                      >
                        R
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          ))}
        </table>
      </div>
    </section>
  );
}
