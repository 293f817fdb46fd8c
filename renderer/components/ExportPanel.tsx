import { useState } from 'react';
import { useSlice, useStores } from '../app-context.js';
import { codeSnippet } from '../model/code-snippet.js';
import { CODE_FORMATS, type CodeFormat } from '../stores/locators-store.js';
import { selectCapabilities } from '../stores/host-state-store.js';
import { LocatorProgress, useCopy } from './LocatorStatus.js';

/** The best locator's code in one language, as a snippet to paste or the whole file, shown before it is copied. */
function CodePreview({ code }: { code: Partial<Record<CodeFormat, string>> }) {
  const formats = CODE_FORMATS.filter((format) => code[format] !== undefined);
  const [chosen, setChosen] = useState<CodeFormat | undefined>();
  const [whole, setWhole] = useState(false);
  const copy = useCopy();
  const format = chosen && formats.includes(chosen) ? chosen : formats[0];
  if (!format) return null;
  const text = whole ? code[format]! : codeSnippet(format, code[format]!);
  return (
    <div className="code-preview" role="group" aria-label="Code preview">
      <div className="toolbar-inline">
        <label className="check">
          Language
          <select value={format} onChange={(e) => setChosen(e.target.value as CodeFormat)}>
            {formats.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="radio" name="code-extent" checked={!whole} onChange={() => setWhole(false)} />
          snippet
        </label>
        <label className="check">
          <input type="radio" name="code-extent" checked={whole} onChange={() => setWhole(true)} />
          whole file
        </label>
        <button
          type="button"
          aria-label={`Copy ${format} ${whole ? 'file' : 'snippet'}`}
          onClick={() => copy(text, `${format} ${whole ? 'file' : 'snippet'}`)}
        >
          Copy
        </button>
      </div>
      <pre className="code" aria-label={`${format} ${whole ? 'file' : 'snippet'}`} tabIndex={0}>
        {text}
      </pre>
    </div>
  );
}

/** The ranked locators of the selected node, each copied or tried with one click, and the best one's code. */
export function ExportPanel() {
  const { details, locators: store, hostState, xpath, settings } = useStores();
  const nodeId = useSlice(details, (s) => s.node?.runtimeId);
  const connected = useSlice(hostState, (s) => s.info !== undefined);
  const available = useSlice(hostState, (s) => selectCapabilities(s).locators);
  const auto = useSlice(settings, (s) => s.autoLocators);
  const locators = useSlice(store, (s) => s.locators);
  const code = useSlice(store, (s) => s.code);
  const error = useSlice(store, (s) => s.error);
  const busy = useSlice(store, (s) => s.busy);
  const copy = useCopy();

  return (
    <section className="export-panel" aria-label="Export">
      <h2 className="panel-title">Export</h2>
      {!connected ? <p className="muted">Waiting for the inspector host…</p> : null}
      {connected && !available ? <p className="muted">This host does not generate locators.</p> : null}
      <div className="toolbar-inline">
        <button
          type="button"
          disabled={!nodeId || !available || busy}
          onClick={() => nodeId && void store.getState().find(nodeId)}
        >
          Find locators
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
      <LocatorProgress busy={busy} />
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
            <button
              type="button"
              aria-label={`Copy locator ${locator.xpath}`}
              onClick={() => copy(locator.xpath, 'locator')}
            >
              Copy
            </button>
            <button
              type="button"
              aria-label={`Try locator ${locator.xpath}`}
              onClick={() => void xpath.getState().evaluate(locator.xpath)}
            >
              Try
            </button>
          </li>
        ))}
      </ol>
      {locators.length > 0 ? <CodePreview code={code} /> : null}
    </section>
  );
}
