import { UI_EVENT_TYPES, eventLine, type UiEventRecord, type UiEventType } from '../../shared/model/ui-events.js';
import { useSlice, useStores } from '../app-context.js';
import { saveText } from './clipboard.js';

function detailText(record: UiEventRecord): string {
  // The text line without its time, type and node: what the event says.
  const line = eventLine({ ...record, role: record.role ?? '', name: record.name ?? '' });
  const head = eventLine({ ...record, role: record.role ?? '', name: record.name ?? '', detail: {} });
  return line.slice(head.length).trim();
}

/** The Events panel: the live list of accessibility events, filtered, paused, cleared and exported here. */
export function EventsPanel() {
  const { events: store, tree } = useStores();
  const state = useSlice(store, (s) => s);
  const selectedId = useSlice(tree, (s) => s.selectedId);
  const actions = store.getState();
  const toggleType = (type: UiEventType, on: boolean) => {
    const current = state.types.length === 0 ? [...UI_EVENT_TYPES] : state.types;
    const next = on ? [...new Set([...current, type])] : current.filter((t) => t !== type);
    void actions.setTypes(next.length === UI_EVENT_TYPES.length ? [] : next);
  };
  return (
    <section className="events-panel" aria-label="Events">
      <div className="events-toolbar" role="toolbar" aria-label="Events actions">
        <button type="button" onClick={() => void (state.watching ? actions.stop() : actions.start())}>
          {state.watching ? 'Stop watching' : 'Watch events'}
        </button>
        <button type="button" aria-pressed={state.paused} onClick={() => actions.setPaused(!state.paused)}>
          {state.paused ? 'Resume' : 'Pause'}
        </button>
        <button type="button" onClick={() => actions.clear()}>
          Clear
        </button>
        <button
          type="button"
          disabled={state.events.length === 0}
          onClick={() => saveText(actions.exportLines(), 'accessibility-events.jsonl', 'application/x-ndjson')}
        >
          Export JSON lines
        </button>
        <label>
          <input
            type="checkbox"
            checked={state.within !== undefined}
            disabled={state.within === undefined && !selectedId}
            onChange={(event) => void actions.setWithin(event.target.checked ? selectedId : undefined)}
          />
          Selected subtree only
        </label>
        <span role="status" aria-label="Event counts">
          {state.events.length} shown, {state.received} received, {state.coalesced} merged, {state.dropped} dropped
          {state.paused ? ' (paused)' : ''}
        </span>
      </div>
      <fieldset className="events-types">
        <legend>Kinds</legend>
        {UI_EVENT_TYPES.map((type) => (
          <label key={type}>
            <input
              type="checkbox"
              checked={state.types.length === 0 || state.types.includes(type)}
              onChange={(event) => toggleType(type, event.target.checked)}
            />
            {type}
          </label>
        ))}
      </fieldset>
      {state.error ? <p role="alert">{state.error}</p> : null}
      {state.notice ? <p role="status">{state.notice}</p> : null}
      <div className="events-list">
        <table aria-label="Event list">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Type</th>
              <th scope="col">Node</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {state.events.map((record, index) => (
              <tr key={`${record.time}-${index}`} onClick={() => void actions.open(record)}>
                <td>{record.time.slice(11, 23)}</td>
                <td>{record.type}</td>
                <td>
                  <button type="button" className="link" onClick={() => void actions.open(record)}>
                    {record.role === null ? `${record.runtimeId} (gone)` : `${record.role} "${record.name ?? ''}"`}
                  </button>
                </td>
                <td>{detailText(record)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
