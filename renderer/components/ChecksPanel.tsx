import { useState } from 'react';
import { useSlice, useStores } from '../app-context.js';
import type { ApiCheckFinding, Result } from '../../shared/api/schema.js';
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

/**
 * The Checks panel: accessibility rules (shared/checks) over the selected node's subtree, findings grouped by rule
 * with severity, WCAG criteria and help; a finding selects its node and outlines it on screen; the report exports as
 * the CLI writes it.
 */
export function ChecksPanel() {
  const { client, details, session, tree } = useStores();
  const node = useSlice(details, (s) => s.node);
  const [result, setResult] = useState<{ runtimeId: string; label: string; answer: CheckResult }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [format, setFormat] = useState<ReportFormat>('sarif');

  const run = async () => {
    if (!node) return;
    setBusy(true);
    setError(undefined);
    try {
      const answer = await client.check({ runtimeId: node.runtimeId });
      setResult({ runtimeId: node.runtimeId, label: nodeLabel(node), answer });
      session.getState().say(`${answer.findings.length} accessibility finding(s)`);
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
      const { report } = await client.check({ runtimeId: result.runtimeId, format });
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
        <button type="button" disabled={!node || busy} onClick={() => void run()}>
          {busy ? 'Checking…' : 'Run checks'}
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
      <ul className="check-rules" aria-label="Findings by rule">
        {groups.map((group) => (
          <RuleFindings key={group.id} group={group} onSelect={select} />
        ))}
      </ul>
    </section>
  );
}
