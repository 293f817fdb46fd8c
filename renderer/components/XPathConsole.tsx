import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { attributeKey } from '../../shared/model/namespaces.js';
import { formatValueText } from '../../shared/model/values.js';
import type { EvaluationItem } from '../../shared/api/schema.js';
import { nodeLabel } from '../model/labels.js';
import { useSlice, useStores } from '../app-context.js';
import { roleGlyph } from '../model/roles.js';
import { summaryText } from '../stores/xpath-store.js';
import { HIGHLIGHT_MS } from './TreeView.js';
import { ResultPath } from './ResultPath.js';
import { lineColumn } from '../xpath/language.js';
import { monaco, registerXPath, XPATH_LANGUAGE } from '../xpath/monaco-setup.js';

const RESULT_HEIGHT = 22;

export function resultLabel(item: EvaluationItem): string {
  switch (item.type) {
    case 'node':
      return nodeLabel(item.node);
    case 'attribute':
      return `${nodeLabel(item.owner)} @${attributeKey(item.namespace, item.name)}=${formatValueText(item.value)}`;
    case 'value':
      return formatValueText(item.value);
  }
}

export function XPathConsole({ dark }: { dark: boolean }) {
  const { xpath, settings } = useStores();
  const status = useSlice(xpath, (s) => s.status);
  const count = useSlice(xpath, (s) => s.count);
  const truncated = useSlice(xpath, (s) => s.truncated);
  const ms = useSlice(xpath, (s) => s.ms);
  const error = useSlice(xpath, (s) => s.error);
  const history = useSlice(xpath, (s) => s.history);
  const live = useSlice(xpath, (s) => s.live);
  const nameProblems = useSlice(xpath, (s) => s.nameProblems);
  const hostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | undefined>(undefined);

  useEffect(() => {
    if (!hostRef.current) return;
    registerXPath();
    const editor = monaco.editor.create(hostRef.current, {
      value: xpath.getState().expression,
      language: XPATH_LANGUAGE,
      theme: dark ? 'xpath-dark' : 'xpath-light',
      ariaLabel: 'XPath',
      automaticLayout: true,
      minimap: { enabled: false },
      lineNumbers: 'off',
      glyphMargin: false,
      folding: false,
      scrollBeyondLastLine: false,
      wordWrap: 'on',
      fontSize: 13,
      renderLineHighlight: 'none',
      overviewRulerLanes: 0,
      placeholder: '//Button[@Name="OK"]   (Ctrl+Enter evaluates)',
      quickSuggestions: { other: true, strings: false, comments: false },
      suggestOnTriggerCharacters: true,
      fixedOverflowWidgets: true,
      accessibilitySupport: 'on',
      // Tab and Shift+Tab leave the editor (no keyboard trap, WCAG 2.1.2); completions take Enter.
      tabFocusMode: true,
      editContext: false,
    });
    editorRef.current = editor;
    const model = editor.getModel()!;
    const sub = model.onDidChangeContent(() => {
      const value = model.getValue();
      // Text the store put here (a locator tried, a history entry) is already its expression.
      if (value !== xpath.getState().expression) xpath.getState().setExpression(value);
      settings.getState().update({ lastExpression: value });
    });
    const unfollow = xpath.subscribe((state, previous) => {
      if (state.expression !== previous.expression && state.expression !== model.getValue())
        editor.setValue(state.expression);
    });
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => void xpath.getState().evaluate());
    // Escape stops a running evaluation (a pending, debounced one still runs).
    editor.addCommand(
      monaco.KeyCode.Escape,
      () => {
        if (xpath.getState().status === 'running') xpath.getState().stop();
      },
      '!suggestWidgetVisible',
    );
    return () => {
      unfollow();
      sub.dispose();
      editor.dispose();
      editorRef.current = undefined;
    };
    // The editor lives as long as the console; the theme is switched below.
  }, []);

  useEffect(() => {
    monaco.editor.setTheme(dark ? 'xpath-dark' : 'xpath-light');
  }, [dark]);

  // Error markers at the position the engine reported.
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    if (status === 'error' && error) {
      const text = model.getValue();
      const at = error.position
        ? { line: error.position.line, column: error.position.column }
        : lineColumn(text, text.length);
      monaco.editor.setModelMarkers(model, 'xpath', [
        {
          severity: monaco.MarkerSeverity.Error,
          message: error.message,
          startLineNumber: at.line,
          startColumn: at.column,
          endLineNumber: at.line,
          endColumn: at.column + 1,
        },
      ]);
    } else monaco.editor.setModelMarkers(model, 'xpath', []);
  }, [status, error]);

  // Unknown element and attribute names, marked where they stand, with the suggestion in the message.
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      'xpath-names',
      nameProblems.map((problem) => {
        const start = model.getPositionAt(problem.start);
        const end = model.getPositionAt(problem.end);
        return {
          severity: monaco.MarkerSeverity.Warning,
          message: problem.message,
          startLineNumber: start.lineNumber,
          startColumn: start.column,
          endLineNumber: end.lineNumber,
          endColumn: end.column,
        };
      }),
    );
  }, [nameProblems]);

  const setText = (text: string) => void xpath.getState().evaluate(text);

  return (
    <section className="xpath-console" aria-label="XPath console">
      <div className="xpath-input">
        <div ref={hostRef} className="monaco-host" data-testid="xpath-editor" />
        <div className="xpath-buttons">
          <button type="button" onClick={() => void xpath.getState().evaluate()}>
            Evaluate
          </button>
          <button type="button" disabled={status !== 'running'} onClick={() => xpath.getState().stop()}>
            Stop
          </button>
          <HighlightAll />
          <label className="check">
            <input
              type="checkbox"
              checked={live}
              onChange={(e) => {
                xpath.getState().setLive(e.target.checked);
                settings.getState().update({ liveEvaluate: e.target.checked });
              }}
            />
            as you type
          </label>
          <select
            aria-label="History"
            value=""
            onChange={(e) => e.target.value && setText(e.target.value)}
            disabled={history.length === 0}
          >
            <option value="">History…</option>
            {history.map((h) => (
              <option key={h} value={h}>
                {h}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className={`summary ${status}`} role="status" aria-live="polite">
        {summaryText({ status, count, ms, error, truncated, nameProblems })}
      </div>
      <ResultList />
    </section>
  );
}

function HighlightAll() {
  const { xpath, client, hostState, screen } = useStores();
  const count = useSlice(xpath, (s) => s.count);
  const evaluationId = useSlice(xpath, (s) => s.evaluationId);
  return (
    <button
      type="button"
      disabled={count === 0 || evaluationId === undefined}
      onClick={() => {
        // Every result, from the host's copy of them: the page holds only the pages shown.
        if (evaluationId === undefined) return;
        void client.highlight({ evaluationId, durationMs: HIGHLIGHT_MS }).then(
          ({ rects }) => {
            screen.getState().showHighlighted(rects, HIGHLIGHT_MS);
            hostState.getState().say(`Highlighted ${rects.length} elements`);
          },
          (e: unknown) => hostState.getState().say(`Highlight failed: ${String(e)}`, 'error'),
        );
      }}
    >
      Highlight all
    </button>
  );
}

function ResultList() {
  const { xpath, tree, client } = useStores();
  const results = useSlice(xpath, (s) => s.results);
  const version = useSlice(xpath, (s) => s.resultsVersion);
  const selectedIndex = useSlice(xpath, (s) => s.selectedIndex);
  const parentRef = useRef<HTMLDivElement>(null);
  const count = results.length;
  void version;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => parentRef.current,
    estimateSize: () => RESULT_HEIGHT,
    overscan: 10,
  });
  // The pages of the rows in view (and the overscan) are fetched as the list scrolls.
  const shown = virtualizer.getVirtualItems();
  const firstShown = shown[0]?.index ?? 0;
  const lastShown = shown[shown.length - 1]?.index ?? -1;
  useEffect(() => {
    if (lastShown >= firstShown) void xpath.getState().loadRange(firstShown, lastShown + 1);
  }, [firstShown, lastShown, results, xpath]);

  const choose = async (index: number) => {
    if (!xpath.getState().results[index]) await xpath.getState().loadRange(index, index + 1);
    const item = xpath.getState().results[index];
    if (!item) return;
    xpath.getState().selectResult(index);
    virtualizer.scrollToIndex(index, { align: 'auto' });
    const target = item.type === 'node' ? item.node : item.type === 'attribute' ? item.owner : undefined;
    if (target) {
      void tree.getState().reveal(target.runtimeId);
      void client.highlight({ runtimeIds: [target.runtimeId], durationMs: HIGHLIGHT_MS }).catch(() => undefined);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = xpath.getState().results.length - 1;
    const current = xpath.getState().selectedIndex;
    let next: number | undefined;
    if (event.key === 'ArrowDown') next = Math.min(last, current + 1);
    else if (event.key === 'ArrowUp') next = Math.max(0, current - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = last;
    if (next !== undefined && last >= 0) {
      event.preventDefault();
      void choose(next);
    }
  };

  return (
    <div
      ref={parentRef}
      className="results"
      role="listbox"
      aria-label="Results"
      tabIndex={0}
      aria-activedescendant={selectedIndex >= 0 ? `result-${selectedIndex}` : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {shown.map((v) => {
          const item = results[v.index];
          if (!item) {
            return (
              <div
                key={v.key}
                id={`result-${v.index}`}
                role="option"
                aria-selected={v.index === selectedIndex}
                aria-busy="true"
                aria-label="Loading result"
                className="row result loading"
                style={{ transform: `translateY(${v.start}px)`, height: RESULT_HEIGHT }}
              >
                <span className="label muted">Loading…</span>
              </div>
            );
          }
          const label = resultLabel(item);
          return (
            <div
              key={v.key}
              id={`result-${v.index}`}
              role="option"
              aria-selected={v.index === selectedIndex}
              aria-label={label}
              className={`row result ${item.type}${v.index === selectedIndex ? ' selected' : ''}`}
              style={{ transform: `translateY(${v.start}px)`, height: RESULT_HEIGHT }}
              onClick={() => void choose(v.index)}
            >
              <span className="icon" aria-hidden="true">
                {item.type === 'node' ? roleGlyph(item.node.role) : item.type === 'attribute' ? '@' : '='}
              </span>
              <span className="label">
                {label}
                {item.type !== 'value' ? (
                  <ResultPath runtimeId={item.type === 'node' ? item.node.runtimeId : item.owner.runtimeId} />
                ) : null}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
