import { useEffect } from 'react';
import { useSlice, useStores } from '../app-context.js';
import { selectCapabilities } from '../stores/session-store.js';
import { copyText } from './clipboard.js';

/** The ranked locators of the selected node, each copied with one click. */
export function ExportPanel() {
  const { details, locators: store, session, xpath, settings } = useStores();
  const nodeId = useSlice(details, (s) => s.node?.runtimeId);
  const available = useSlice(session, (s) => selectCapabilities(s).locators);
  const auto = useSlice(settings, (s) => s.autoLocators);
  const locators = useSlice(store, (s) => s.locators);
  const code = useSlice(store, (s) => s.code);
  const error = useSlice(store, (s) => s.error);
  const busy = useSlice(store, (s) => s.busy);

  // Locators are computed on demand (they verify candidates against the whole tree, which can take long on big
  // trees); with "auto" they follow the selection once it has rested for a moment. A fresh view of the same node
  // (after a reload) keeps the locators; another node clears them.
  useEffect(() => {
    if (store.getState().runtimeId !== nodeId) store.getState().clear();
    if (!nodeId || !available || !auto) return;
    const timer = setTimeout(() => void store.getState().find(nodeId), 600);
    return () => clearTimeout(timer);
  }, [nodeId, available, auto, store]);

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
          disabled={!nodeId || !available || busy}
          onClick={() => nodeId && void store.getState().find(nodeId)}
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
            {locator.matches !== 1 ? <span className="badge">not unique</span> : null}
            <span className="score">score {locator.score}</span>
            <span className="muted locator-why">
              {locator.strategy}: {locator.reason}
            </span>
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
            {i === 0
              ? Object.entries(code).map(([language, text]) => (
                  <button
                    key={language}
                    type="button"
                    aria-label={`Copy ${language} code for ${locator.xpath}`}
                    onClick={() => copy(text)}
                  >
                    {language}
                  </button>
                ))
              : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
