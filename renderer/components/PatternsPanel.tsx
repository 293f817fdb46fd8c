import { useState } from 'react';
import type { ActionArgs } from '../../shared/api/client.js';
import { patternDefinition } from '../../shared/model/patterns.js';
import { formatValueText } from '../../shared/model/values.js';
import { useSlice, useStores } from '../app-context.js';

/** Actions that take input, and how to ask for it. */
const INPUTS: { [action: string]: { fields: string[]; build: (values: string[]) => ActionArgs } } = {
  setValue: { fields: ['value'], build: ([v]) => ({ value: v ?? '' }) },
  move: { fields: ['x', 'y'], build: ([x, y]) => ({ x: Number(x), y: Number(y) }) },
  resize: { fields: ['width', 'height'], build: ([w, h]) => ({ width: Number(w), height: Number(h) }) },
  scroll: { fields: ['x', 'y'], build: ([x, y]) => ({ x: Number(x), y: Number(y) }) },
};

export function PatternsPanel() {
  const { details } = useStores();
  const node = useSlice(details, (s) => s.node);
  const patterns = useSlice(details, (s) => s.patterns);
  const attributes = useSlice(details, (s) => s.attributes);
  const outcomes = useSlice(details, (s) => s.outcomes);
  const busy = useSlice(details, (s) => s.busy);

  if (!node) return <section className="patterns-panel" aria-label="Patterns" />;
  const value = (name: string) => {
    const entry = attributes.find((a) => a.namespace === 'control' && a.name === name);
    return entry ? formatValueText(entry.value) : undefined;
  };
  return (
    <section className="patterns-panel" aria-label="Patterns">
      <h2 className="panel-title">Patterns</h2>
      {node.stale ? (
        <p className="warning" role="alert">
          This node is stale: actions on it are refused. Refresh the tree and select it again.
        </p>
      ) : null}
      {patterns.length === 0 ? <p className="muted">No patterns</p> : null}
      <ul className="patterns">
        {patterns.map((pattern) => {
          const def = patternDefinition(pattern.name);
          const names = [...(def?.required ?? []), ...(def?.optional ?? [])];
          const shown: Array<[string, string]> = pattern.attributes
            ? pattern.attributes.filter((a) => !a.derived).map((a) => [a.name, formatValueText(a.value)])
            : names.flatMap((a): Array<[string, string]> => {
                const v = value(a);
                return v === undefined ? [] : [[a, v]];
              });
          return (
            <li key={pattern.name} className="pattern">
              <div className="pattern-name">{pattern.name}</div>
              {shown.length ? (
                <dl className="pattern-attrs">
                  {shown.map(([a, v]) => (
                    <div key={a}>
                      <dt>{a}</dt>
                      <dd>{v}</dd>
                    </div>
                  ))}
                </dl>
              ) : null}
              {pattern.missing?.length ? (
                <p className="warning">Missing required attributes: {pattern.missing.join(', ')}</p>
              ) : null}
              <div className="pattern-actions">
                {pattern.actions
                  .filter((action) => action !== 'highlight')
                  .map((action) => (
                    <ActionButton key={action} action={action} busy={busy === action} outcome={outcomes[action]} />
                  ))}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function ActionButton({
  action,
  busy,
  outcome,
}: {
  action: string;
  busy: boolean;
  outcome: { ok: boolean; message: string; stale: boolean } | undefined;
}) {
  const { details, tree } = useStores();
  const input = INPUTS[action];
  const [values, setValues] = useState<string[]>(() => (input ? input.fields.map(() => '') : []));
  const run = async () => {
    const result = await details.getState().perform(action, input ? input.build(values) : undefined);
    if (result.ok) {
      const id = details.getState().node?.runtimeId;
      if (id) void tree.getState().refresh(id, false);
    }
  };
  return (
    <div className="action">
      {input?.fields.map((field, i) => (
        <input
          key={field}
          className="action-input"
          aria-label={`${action} ${field}`}
          placeholder={field}
          value={values[i] ?? ''}
          onChange={(e) => setValues(values.map((v, j) => (j === i ? e.target.value : v)))}
        />
      ))}
      <button type="button" disabled={busy} onClick={() => void run()}>
        {action}
      </button>
      {outcome ? (
        <span
          className={`outcome ${outcome.ok ? 'ok' : outcome.stale ? 'stale' : 'failed'}`}
          aria-live="polite"
          data-action={action}
        >
          {outcome.message}
        </span>
      ) : null}
    </div>
  );
}
