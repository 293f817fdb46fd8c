import type { CheckConfig } from './config.js';
import { severityRank, walkCheckTree, type CheckNode, type Finding, type Rule, type Severity } from './model.js';
import { RULES } from './rules/index.js';

export interface CheckRunOptions {
  readonly config: CheckConfig;
  /** Only these rules (`--rules`); every configured rule when absent. */
  readonly only?: ReadonlySet<string>;
  /** Node keys the config's ignore locators selected, per rule id; `*` for every rule. */
  readonly ignored?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Rules that cannot run here (contrast without a screenshot device): left out of the run and the report. */
  readonly unavailable?: ReadonlySet<string>;
  /** A subtree the caller leaves out (the inspector's own windows), with all below it. */
  readonly skip?: (node: CheckNode) => boolean;
}

export interface RuleRun {
  readonly rule: Rule;
  readonly severity: Severity;
  readonly findings: number;
}

export interface CheckReport {
  readonly findings: readonly Finding[];
  /** Every rule that ran, with its configured severity and how many findings it gave (JUnit needs the clean ones). */
  readonly rules: readonly RuleRun[];
  readonly nodesChecked: number;
  readonly ignoredFindings: number;
}

export function activeRules(
  options: Pick<CheckRunOptions, 'config' | 'only' | 'unavailable'>,
): { rule: Rule; severity: Severity }[] {
  const active: { rule: Rule; severity: Severity }[] = [];
  for (const rule of RULES) {
    if ((options.only && !options.only.has(rule.id)) || options.unavailable?.has(rule.id)) continue;
    const setting = options.config.rules.get(rule.id) ?? rule.severity;
    if (setting !== 'off') active.push({ rule, severity: setting });
  }
  return active;
}

/** Runs the active rules over every node below the roots (the roots included), in document order. */
export function runChecks(roots: readonly CheckNode[], options: CheckRunOptions): CheckReport {
  const active = activeRules(options);
  const counts = new Map<string, number>(active.map(({ rule }) => [rule.id, 0]));
  const findings: Finding[] = [];
  let nodesChecked = 0;
  let ignoredFindings = 0;
  const skipped = new Set<CheckNode>();
  for (const node of walkCheckTree(roots)) {
    if (node.parent && skipped.has(node.parent)) {
      skipped.add(node);
      continue;
    }
    if (options.skip?.(node)) {
      skipped.add(node);
      continue;
    }
    nodesChecked++;
    for (const { rule, severity } of active) {
      for (const hit of rule.check(node)) {
        if (options.ignored?.get(rule.id)?.has(node.key) || options.ignored?.get('*')?.has(node.key)) {
          ignoredFindings++;
          continue;
        }
        findings.push({ rule: rule.id, severity, message: hit.message, node });
        counts.set(rule.id, counts.get(rule.id)! + 1);
      }
    }
  }
  return {
    findings,
    rules: active.map(({ rule, severity }) => ({ rule, severity, findings: counts.get(rule.id)! })),
    nodesChecked,
    ignoredFindings,
  };
}

/** Whether the report holds a finding at or above the threshold (`--fail-on`); `never` never fails. */
export function failsAt(report: CheckReport, threshold: Severity | 'never'): boolean {
  if (threshold === 'never') return false;
  return report.findings.some((finding) => severityRank(finding.severity) >= severityRank(threshold));
}
