import type { ApiCheckFinding, Params, Result } from '../../shared/api/schema.js';
import { MAX_CHECK_FINDINGS } from '../../shared/api/schema.js';
import { CheckConfigError, EMPTY_CHECK_CONFIG } from '../../shared/checks/config.js';
import { parseCheckConfig } from '../../shared/checks/config-file.js';
import { formatCheckReport } from '../../shared/checks/report/formats.js';
import { ruleById } from '../../shared/checks/rules/index.js';
import { InspectorError } from '../../shared/model/errors.js';
import type { XPathService } from '../xpath/xpath-service.js';
import { checkAccessibility } from './accessibility-check.js';
import { bestLocatorOfEach } from './locate.js';
import { checkTool } from './package-info.js';
import type { TreeView } from './tree-view.js';

/** A tree view with its XPath service (the checks evaluate their rules' queries and locate their findings). */
export interface CheckView extends TreeView {
  readonly xpath: XPathService;
}

/**
 * The protocol's `check`: rules and config validated, the subtree checked (the node `runtimeId` names, else the
 * desktop), findings capped, the report formatted.
 */
export async function checkRequest(view: CheckView, params: Params<'check'>): Promise<Result<'check'>> {
  const { runtime, xpath } = view;
  const root = params.runtimeId ? view.node(params.runtimeId) : undefined;
  const unknown = (params.rules ?? []).filter((id) => !ruleById(id));
  if (unknown.length > 0) {
    throw new InspectorError('invalid-input', `unknown rule ${unknown.join(', ')}`, { path: 'rules' });
  }
  let config = EMPTY_CHECK_CONFIG;
  if (params.config !== undefined) {
    try {
      config = parseCheckConfig(params.config, 'config');
    } catch (error) {
      if (error instanceof CheckConfigError)
        throw new InspectorError('invalid-input', error.message, { path: 'config' });
      throw error;
    }
  }
  const format = params.format;
  const { report, locatorOf, tabOrder } = await checkAccessibility(runtime, xpath, {
    ...(root ? { root } : {}),
    config,
    ...(params.tabOrder ? { tabOrder: {} } : {}),
    ...(params.rules ? { only: new Set(params.rules) } : {}),
    // Locators only for a report (the panel shows none): then the check reads no locator attributes either.
    ...(format ? { locate: (targets, held) => bestLocatorOfEach(runtime, targets, held) } : {}),
  });
  const findings: ApiCheckFinding[] = report.findings.slice(0, MAX_CHECK_FINDINGS).map((finding) => ({
    rule: finding.rule,
    severity: finding.severity,
    message: finding.message,
    node: {
      runtimeId: finding.node.key,
      namespace: finding.node.namespace,
      role: finding.node.role,
      name: finding.node.name,
    },
  }));
  return {
    findings,
    truncated: report.findings.length > findings.length,
    rules: report.rules.map((run) => ({ id: run.rule.id, severity: run.severity, findings: run.findings })),
    nodesChecked: report.nodesChecked,
    ...(tabOrder ? { tabOrder: tabOrder.map((walk) => ({ ...walk, order: [...walk.order] })) } : {}),
    ...(format ? { report: formatCheckReport(report, format, locatorOf, checkTool()) } : {}),
  };
}
