import { useState } from 'react';
import { useSlice, useStores } from '../app-context.js';
import type { ApiCheckFinding, ApiTabOrderWindow, Result } from '../../shared/api/schema.js';
import { TAB_ORDER_RULE_IDS, TAB_WALK_END_TEXT } from '../../shared/checks/rules/tab-order.js';
import { CHECK_FORMATS } from '../../shared/checks/model.js';
import { ruleById } from '../../shared/checks/rules/index.js';
import { errorOf } from '../model/errors.js';
import { nodeLabel } from '../model/labels.js';

type CheckResult = Result<'check'>;
type ReportFormat = (typeof CHECK_FORMATS)[number];

/** How long the outline of a finding's node stays on screen. */
const HIGHLIGHT_MS = 2500;

const FILE_TYPES: Record<ReportFormat, { extension: string; mime: string }> = {
  text: { extension: 'txt', mime: 'text/plain' },
  json: { extension: 'json', mime: 'application/json' },
  sarif: { extension: 'sarif', mime: 'application/sarif+json' },
  junit: { extension: 'xml', mime: 'application/xml' },
};

interface RuleGroup {
  id: string;
  findings: ApiCheckFinding[];
}

function groupByRule(findings: readonly ApiCheckFinding[]): RuleGroup[] {
  const groups = new Map<string, ApiCheckFinding[]>();
  for (const finding of findings) {
    const list = groups.get(finding.rule) ?? [];
    list.push(finding);
    groups.set(finding.rule, list);
  }
  return [...groups].map(([id, list]) => ({ id, findings: list }));
}

function download(text: string, format: ReportFormat): void {
  const { extension, mime } = FILE_TYPES[format];
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `accessibility-checks.${extension}`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function RuleFindings({ group, onSelect }: { group: RuleGroup; onSelect: (finding: ApiCheckFinding) => void }) {
  const [helpOpen, setHelpOpen] = useState(false);
  const rule = ruleById(group.id);
  const severity = group.findings[0]?.severity ?? rule?.severity ?? 'info';
  return (
    <li className="check-rule">
      <h3 className="check-rule-title">
        <span className={`badge severity-${severity}`}>{severity}</span> {rule?.title ?? group.id}{' '}
        <span className="muted">
          ({group.id}, {group.findings.length})
        </span>
      </h3>
      <p className="muted check-wcag">WCAG {rule?.wcag.join('; ') ?? '—'}</p>
      <button
        type="button"
        aria-expanded={helpOpen}
        aria-label={`Help for ${group.id}`}
        onClick={() => setHelpOpen(!helpOpen)}
      >
        Help
      </button>
      {helpOpen && rule ? <p className="check-help">{rule.help}</p> : null}
      <ul className="check-findings" aria-label={`Findings of ${group.id}`}>
        {group.findings.map((finding, index) => (
          <li key={`${finding.node.runtimeId}-${index}`}>
            <button type="button" className="check-finding" onClick={() => onSelect(finding)}>
              {finding.message}
            </button>
          </li>
        ))}
      </ul>
    </li>
  );
}

function TabOrderList({ walks, onSelect }: { walks: ApiTabOrderWindow[]; onSelect: (runtimeId: string) => void }) {
  return (
    <div className="tab-order" aria-label="Tab order">
      {walks.map((walk) => (
        <div key={walk.window.runtimeId}>
          <h3 className="check-rule-title">
            Tab order of {walk.window.role} {walk.window.name ? `"${walk.window.name}"` : ''}
          </h3>
          <p className="muted">
            {walk.order.length} stop(s), {walk.presses} press(es) of Tab; {TAB_WALK_END_TEXT[walk.end]}
          </p>
          <ol className="check-findings" aria-label={`Tab order of ${walk.window.name || walk.window.role}`}>
            {walk.order.map((stop) => (
              <li key={stop.runtimeId}>
                <button type="button" className="check-finding" onClick={() => onSelect(stop.runtimeId)}>
                  {stop.role ?? '?'}
                  {stop.name ? ` "${stop.name}"` : ''}
                </button>
              </li>
            ))}
          </ol>
        </div>
      ))}
    </div>
  );
}

/**
 * The Checks panel: accessibility rules (shared/checks) over the selected node's subtree, findings grouped by rule
 * with severity, WCAG criteria and help; a finding selects its node and outlines it on screen; the report exports as
 * the CLI writes it. "Tab order" walks the tab order with the keyboard (the rules tab-unreachable and tab-trap),
 * lists it and numbers its stops on the Screen view.
 */
export function ChecksPanel() {
  const { client, details, hostState, tree, screen } = useStores();
  const node = useSlice(details, (s) => s.node);
  const [result, setResult] = useState<{ runtimeId: string; label: string; answer: CheckResult; tabOrder: boolean }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [format, setFormat] = useState<ReportFormat>('sarif');

  const run = async (tabOrder: boolean) => {
    if (!node) return;
    setBusy(true);
    setError(undefined);
    try {
      const answer = await client.check({
        runtimeId: node.runtimeId,
        ...(tabOrder ? { tabOrder: true, rules: [...TAB_ORDER_RULE_IDS] } : {}),
      });
      setResult({ runtimeId: node.runtimeId, label: nodeLabel(node), answer, tabOrder });
      const markers = (answer.tabOrder ?? []).flatMap((walk) =>
        walk.order.flatMap((stop, index) => (stop.bounds ? [{ rect: stop.bounds, number: index + 1 }] : [])),
      );
      screen.getState().showTabOrder(markers);
      hostState.getState().say(`${answer.findings.length} accessibility finding(s)`);
    } catch (e) {
      setError(errorOf(e).message);
    } finally {
      setBusy(false);
    }
  };

  const exportReport = async () => {
    if (!result) return;
    setBusy(true);
    try {
      // A tab-order run's report walks again: its findings come only from a walk.
      const { report } = await client.check({
        runtimeId: result.runtimeId,
        format,
        ...(result.tabOrder ? { tabOrder: true, rules: [...TAB_ORDER_RULE_IDS] } : {}),
      });
      if (report !== undefined) download(report, format);
    } catch (e) {
      setError(errorOf(e).message);
    } finally {
      setBusy(false);
    }
  };

  const select = (finding: ApiCheckFinding) => {
    void tree.getState().reveal(finding.node.runtimeId);
    void client.highlight({ runtimeIds: [finding.node.runtimeId], durationMs: HIGHLIGHT_MS }).catch(() => undefined);
  };

  const groups = result ? groupByRule(result.answer.findings) : [];
  return (
    <section className="checks-panel" aria-label="Checks">
      <h2 className="panel-title">Checks</h2>
      <div className="toolbar-inline">
        <button type="button" disabled={!node || busy} onClick={() => void run(false)}>
          {busy ? 'Checking…' : 'Run checks'}
        </button>
        <button
          type="button"
          disabled={!node || busy}
          onClick={() => void run(true)}
          title="Tab through the selected element's window with the keyboard: the order, unreachable stops and traps"
        >
          Tab order
        </button>
        <label className="check">
          Report
          <select value={format} onChange={(e) => setFormat(e.target.value as ReportFormat)}>
            {CHECK_FORMATS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={!result || busy} onClick={() => void exportReport()}>
          Export report
        </button>
      </div>
      {error ? <p className="error">{error}</p> : null}
      {result ? (
        <p className="muted check-summary" aria-live="polite">
          {result.answer.findings.length} finding(s) in {result.answer.nodesChecked} node(s) of {result.label}
          {result.answer.truncated ? ' (only the first shown)' : ''}
        </p>
      ) : null}
      {result?.answer.tabOrder ? (
        <TabOrderList walks={result.answer.tabOrder} onSelect={(id) => void tree.getState().reveal(id)} />
      ) : null}
      <ul className="check-rules" aria-label="Findings by rule">
        {groups.map((group) => (
          <RuleFindings key={group.id} group={group} onSelect={select} />
        ))}
      </ul>
    </section>
  );
}
