import type { CheckNode, Finding } from '../model.js';
import { qualifiedRole } from '../../model/namespaces.js';

/** The best locator of a node, or undefined where none could be verified. */
export type LocatorOf = (node: CheckNode) => string | undefined;

/** One finding as the JSON output of `check` prints it. */
export interface FindingJson {
  rule: string;
  severity: string;
  message: string;
  node: { runtimeId: string; role: string; name: string };
  locator: string | null;
}

export function findingJson(finding: Finding, locatorOf: LocatorOf): FindingJson {
  const { node } = finding;
  return {
    rule: finding.rule,
    severity: finding.severity,
    message: finding.message,
    node: {
      runtimeId: node.key,
      role: qualifiedRole(node.namespace, node.role),
      name: node.name,
    },
    locator: locatorOf(node) ?? null,
  };
}
