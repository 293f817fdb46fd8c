import { useEffect, useState } from 'react';
import type { Locator } from '../api/types.js';
import { asApiError } from '../api/types.js';
import { useSlice, useStores } from '../app-context.js';
import { copyText } from './clipboard.js';

/** The ranked locators of the selected node, each copied with one click. */
export function ExportPanel() {
  const { details, api, session, xpath } = useStores();
  const node = useSlice(details, (s) => s.node);
  const available = useSlice(session, (s) => s.info?.features.locators ?? false);
  const [locators, setLocators] = useState<Locator[]>([]);
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    setLocators([]);
    setError(undefined);
    if (!node || !available) return;
    let live = true;
    api.locators(node.runtimeId).then(
      (found) => live && setLocators(found),
      (e: unknown) => live && setError(asApiError(e).message),
    );
    return () => {
      live = false;
    };
  }, [node, available, api]);

  const copy = (text: string) =>
    void copyText(text).then(
      () => session.getState().say('Copied locator'),
      (e: unknown) => session.getState().say(`Copy failed: ${String(e)}`, 'error'),
    );

  return (
    <section className="export-panel" aria-label="Export">
      <h2 className="panel-title">Export</h2>
      {!available ? <p className="muted">This host does not generate locators.</p> : null}
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
