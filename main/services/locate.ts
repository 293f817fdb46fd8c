import type { AttributeEntry } from '../../shared/model/attributes.js';
import { attributeKey, parseAttributeKey } from '../../shared/model/namespaces.js';
import { DEFAULT_PRIORITY } from '../../shared/locators/config.js';
import { formatValueText } from '../../shared/model/values.js';
import { LocatorIndex, proposeLocators, type Locator } from '../../shared/locators/generate.js';
import {
  buildLocatorTree,
  type LocatorNode,
  type LocatorNodeInit,
  type LocatorTree,
} from '../../shared/locators/tree.js';
import { verifyLocators } from '../../shared/locators/verify.js';
import { dogtailPath } from '../../shared/export/dogtail.js';
import {
  parseExportAction,
  renderExport,
  type ExportFormat,
  type ExportTarget,
} from '../../shared/export/templates.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import type { XPathService } from '../xpath/xpath-service.js';
import { selectNodes } from './select-nodes.js';
import type { CollectedNode } from './snapshot.js';

function toInit(node: CollectedNode): LocatorNodeInit {
  const attributes = new Map<string, string>();
  for (const entry of node.attributes)
    attributes.set(attributeKey(entry.namespace, entry.name), formatValueText(entry.value));
  return {
    namespace: node.namespace,
    role: node.role,
    name: node.name,
    key: node.runtimeId,
    attributes,
    children: node.children.map(toInit),
  };
}

/**
 * The whole desktop as the tree owns it (grouped view), as a LocatorTree keyed by runtime id. The targets and their
 * ancestors carry every attribute (any of them may end up in a locator); every other node carries only the
 * attributes of the priority list, which is what telling nodes apart needs. Reading every attribute of every node
 * would cost each application a round trip per attribute and node. Locators are verified by the real engine
 * afterwards, so a value not read here can only make a candidate fail verification, never make a wrong one pass.
 */
export async function captureLocatorTree(runtime: Runtime, targets: readonly RuntimeNode[] = []): Promise<LocatorTree> {
  const full = new Set<RuntimeNode>();
  for (const target of targets) {
    full.add(target);
    for (const ancestor of runtime.ancestors(target)) full.add(ancestor);
  }
  const names = [...new Set(DEFAULT_PRIORITY.map((key) => parseAttributeKey(key)?.name ?? key))];
  const wanted = new Set(DEFAULT_PRIORITY);
  const read = async (node: RuntimeNode): Promise<readonly AttributeEntry[]> => {
    if (full.has(node)) return node.attributes();
    const found = await Promise.all(names.map((name) => node.attributesNamed(name)));
    return found.flat().filter((entry) => wanted.has(attributeKey(entry.namespace, entry.name)));
  };
  const collect = async (node: RuntimeNode): Promise<CollectedNode> => {
    const [attributes, children] = await Promise.all([
      read(node).catch((): readonly AttributeEntry[] => []),
      runtime.structuralChildren(node).catch((): readonly RuntimeNode[] => []),
    ]);
    return {
      runtimeId: node.runtimeId,
      name: node.name,
      namespace: node.namespace,
      role: node.role,
      attributes: [...attributes],
      children: await Promise.all(children.map(collect)),
    };
  };
  const desktop = await collect(runtime.desktop);
  return buildLocatorTree(desktop.children.map(toInit));
}

/** Ranked locators for live nodes, each verified through the runtime's XPath service to select exactly that node. */
export async function locateNodes(
  runtime: Runtime,
  xpath: XPathService,
  targets: readonly RuntimeNode[],
  options: { timeoutMs?: number } = {},
): Promise<ExportTarget[]> {
  const tree = await captureLocatorTree(runtime, targets);
  const byKey = new Map<string, LocatorNode>(tree.nodes.map((node) => [node.key, node]));
  const index = new LocatorIndex(tree);
  const out: ExportTarget[] = [];
  for (const target of targets) {
    const node = byKey.get(target.runtimeId);
    const proposed = node ? proposeLocators(index, node) : [];
    const locators = await verifyLocators(
      proposed,
      async (candidate) => {
        const { items } = await xpath.evaluate(candidate, {
          ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        });
        const nodes = items.flatMap((item) => (item.type === 'node' ? [item.node] : []));
        return { matches: items.length, isTarget: nodes.length === 1 && nodes[0]!.runtimeId === target.runtimeId };
      },
      index.config.maxResults,
    );
    out.push({
      runtimeId: target.runtimeId,
      namespace: target.namespace,
      role: target.role,
      name: target.name,
      locators,
      ...(node ? { dogtail: dogtailPath(node) } : {}),
    });
  }
  return out;
}

/** The nodes an XPath selects, each with its verified locators (CLI `locate`). */
export async function locateSelected(
  runtime: Runtime,
  xpath: XPathService,
  expression: string,
  timeoutMs: number | undefined,
): Promise<ExportTarget[]> {
  const targets = await selectNodes(
    xpath,
    expression,
    timeoutMs,
    `locate needs an XPath that selects nodes; "${expression}" selected other items`,
  );
  return locateNodes(runtime, xpath, targets, timeoutMs !== undefined ? { timeoutMs } : {});
}

/** One node's verified locators, best first, at most `limit`. */
export async function locatorsOf(
  runtime: Runtime,
  xpath: XPathService,
  node: RuntimeNode,
  limit?: number,
): Promise<Locator[]> {
  const [target] = await locateNodes(runtime, xpath, [node]);
  return (target?.locators ?? []).slice(0, limit).map((locator) => ({ ...locator }));
}

/** Test code that finds one node (and acts on it), with the locators it was made from. */
export async function exportNode(
  runtime: Runtime,
  xpath: XPathService,
  node: RuntimeNode,
  format: ExportFormat,
  action: string,
): Promise<{ code: string; locators: Locator[] }> {
  const parsedAction = parseExportAction(action);
  const targets = await locateNodes(runtime, xpath, [node]);
  return {
    code: renderExport(format, targets, parsedAction),
    locators: (targets[0]?.locators ?? []).map((locator) => ({ ...locator })),
  };
}
