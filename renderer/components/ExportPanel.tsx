import { useEffect, useState } from 'react';
import type { Locator } from '../api/types.js';
import { asApiError } from '../api/types.js';
import { useSlice, useStores } from '../app-context.js';
import { copyText } from './clipboard.js';

/** The ranked locators of the selected node, each copied with one click. */
export function ExportPanel() {
  const { details, api, session, xpath, settings } = useStores();
  const node = useSlice(details, (s) => s.node);
  const nodeId = node?.runtimeId;
  const available = useSlice(session, (s) => s.info?.features.locators ?? false);
  const auto = useSlice(settings, (s) => s.autoLocators);
  const [locators, setLocators] = useState<Locator[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [requested, setRequested] = useState<string | undefined>();

  // Locators are computed on demand (they verify candidates against the whole tree, which can take long on big
  // trees); with "auto" they follow the selection once it has rested for a moment.
  useEffect(() => {
    setLocators([]);
    setError(undefined);
    setRequested(undefined);
    if (!nodeId || !available || !auto) return;
    const timer = setTimeout(() => setRequested(nodeId), 600);
    return () => clearTimeout(timer);
    // A fresh view of the same node (after a reload) keeps the locators; another node clears them.
  }, [nodeId, available, auto]);

  useEffect(() => {
    if (!requested) return;
    let live = true;
    setBusy(true);
    api.locators(requested).then(
      (found) => {
        if (!live) return;
        setLocators(found);
        setBusy(false);
        if (found.length === 0) setError('No locator identifies this node');
      },
      (e: unknown) => {
        if (!live) return;
        setError(asApiError(e).message);
        setBusy(false);
      },
    );
    return () => {
      live = false;
    };
  }, [requested, api]);

  const copy = (text: string) =>
    void copyText(text).then(
      () => session.getState().say('Copied locator'),
      (e: unknown) => session.getState().say(`Copy failed: ${String(e)}`, 'error'),
    );

  return (
    <section className="export-panel" aria-label="Export">
      <h2 className="panel-title">Export</h2>
      {!available ? <p className="muted">This host does not generate locators.</p> : null}
      <div className="toolbar-inline">
        <button
          type="button"
          disabled={!node || !available || busy}
          onClick={() => node && setRequested(node.runtimeId)}
        >
          {busy ? 'Finding locators…' : 'Find locators'}
        </button>
        <label className="check">
          <input
            type="checkbox"
            checked={auto}
            onChange={(e) => settings.getState().update({ autoLocators: e.target.checked })}
          />
          follow the selection
        </label>
      </div>
      {error ? <p className="error">{error}</p> : null}
      <ol className="locators" aria-label="Locators">
        {locators.map((locator, i) => (
          <li key={`${locator.xpath}-${i}`} className="locator">
            <code className="locator-xpath">{locator.xpath}</code>
            {locator.unique === false ? <span className="badge">not unique</span> : null}
            {locator.score !== undefined ? <span className="score">score {locator.score}</span> : null}
            {locator.description ? <span className="muted locator-why">{locator.description}</span> : null}
            <button type="button" aria-label={`Copy locator ${locator.xpath}`} onClick={() => copy(locator.xpath)}>
              Copy
            </button>
            <button
              type="button"
              aria-label={`Try locator ${locator.xpath}`}
              onClick={() => void xpath.getState().evaluate(locator.xpath)}
            >
              Try
            </button>
            {Object.entries(locator.code ?? {}).map(([language, code]) => (
              <button
                key={language}
                type="button"
                aria-label={`Copy ${language} code for ${locator.xpath}`}
                onClick={() => copy(code)}
              >
                {language}
              </button>
            ))}
          </li>
        ))}
      </ol>
    </section>
  );
}
