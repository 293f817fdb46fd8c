import type { CheckReport } from '../engine.js';
import type { CheckFormat, Severity } from '../model.js';
import { findingJson, type LocatorOf } from './finding-json.js';

export { CHECK_FORMATS, type CheckFormat } from '../model.js';

export interface ToolInfo {
  readonly name: string;
  readonly version: string;
}

export function formatCheckReport(
  report: CheckReport,
  format: CheckFormat,
  locatorOf: LocatorOf,
  tool: ToolInfo,
): string {
  switch (format) {
    case 'json':
      return (
        JSON.stringify(
          report.findings.map((finding) => findingJson(finding, locatorOf)),
          null,
          2,
        ) + '\n'
      );
    case 'sarif':
      return JSON.stringify(sarif(report, locatorOf, tool), null, 2) + '\n';
    case 'junit':
      return junit(report, locatorOf);
    case 'text':
      return text(report, locatorOf);
  }
}

function text(report: CheckReport, locatorOf: LocatorOf): string {
  const lines = report.findings.map((finding) => {
    const locator = locatorOf(finding.node);
    return `${finding.severity.padEnd(7)} ${finding.rule}: ${finding.message}${locator ? `\n        at ${locator}` : ''}`;
  });
  const bySeverity = (severity: Severity) => report.findings.filter((f) => f.severity === severity).length;
  lines.push(
    `${report.findings.length} finding(s): ${bySeverity('error')} error(s), ${bySeverity('warning')} warning(s), ` +
      `${bySeverity('info')} info; ${report.nodesChecked} node(s) checked by ${report.rules.length} rule(s)` +
      (report.ignoredFindings > 0 ? `; ${report.ignoredFindings} ignored by the config` : ''),
  );
  return lines.join('\n') + '\n';
}

const SARIF_LEVEL: { readonly [S in Severity]: string } = { error: 'error', warning: 'warning', info: 'note' };

/** SARIF 2.1.0: one run, the rules as the driver's reportingDescriptors, each result located by its locator. */
function sarif(report: CheckReport, locatorOf: LocatorOf, tool: ToolInfo): object {
  const index = new Map(report.rules.map((run, i) => [run.rule.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            rules: report.rules.map(({ rule, severity }) => ({
              id: rule.id,
              shortDescription: { text: rule.title },
              fullDescription: { text: rule.help },
              help: { text: `${rule.help} WCAG: ${rule.wcag.join('; ')}.` },
              defaultConfiguration: { level: SARIF_LEVEL[severity] },
              properties: { tags: rule.wcag.map((criterion) => `WCAG ${criterion}`) },
            })),
          },
        },
        results: report.findings.map((finding) => {
          const json = findingJson(finding, locatorOf);
          return {
            ruleId: finding.rule,
            ruleIndex: index.get(finding.rule),
            level: SARIF_LEVEL[finding.severity],
            message: { text: finding.message },
            locations: [
              {
                logicalLocations: [
                  {
                    fullyQualifiedName: json.locator ?? json.node.runtimeId,
                    name: json.node.name || json.node.role,
                    kind: 'element',
                  },
                ],
              },
            ],
            properties: { runtimeId: json.node.runtimeId, role: json.node.role },
          };
        }),
      },
    ],
  };
}

/** Characters XML 1.0 does not allow, even escaped (control characters other than tab and line breaks). */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\n': '&#10;',
  '\r': '&#13;',
  '\t': '&#9;',
};

function xmlText(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>]/g, (c) => XML_ESCAPES[c]!);
}

function xmlAttributes(attributes: { readonly [name: string]: string | number }): string {
  return Object.entries(attributes)
    .map(
      ([name, value]) =>
        ` ${name}="${String(value)
          .replace(NOT_XML, '')
          .replace(/[&<>"\n\r\t]/g, (c) => XML_ESCAPES[c]!)}"`,
    )
    .join('');
}

/** JUnit XML: a failing test case per finding, a passing one per rule that found nothing. */
function junit(report: CheckReport, locatorOf: LocatorOf): string {
  const failures = report.findings.length;
  const tests = failures + report.rules.filter((run) => run.findings === 0).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${xmlAttributes({ name: 'platynui-inspector check', tests, failures })}>`,
    `  <testsuite${xmlAttributes({ name: 'accessibility', tests, failures, errors: 0, skipped: 0 })}>`,
  ];
  for (const run of report.rules) {
    if (run.findings === 0)
      lines.push(`    <testcase${xmlAttributes({ classname: `a11y.${run.rule.id}`, name: run.rule.title })}/>`);
  }
  for (const finding of report.findings) {
    const json = findingJson(finding, locatorOf);
    const name = `${json.node.role}${json.node.name ? ` "${json.node.name}"` : ''} (${json.node.runtimeId})`;
    const detail = `${finding.message}\nlocator: ${json.locator ?? '(none)'}\nrule: ${finding.rule}`;
    lines.push(
      `    <testcase${xmlAttributes({ classname: `a11y.${finding.rule}`, name })}>`,
      `      <failure${xmlAttributes({ message: finding.message, type: finding.severity })}>${xmlText(detail)}</failure>`,
      '    </testcase>',
    );
  }
  lines.push('  </testsuite>', '</testsuites>');
  return lines.join('\n') + '\n';
}
