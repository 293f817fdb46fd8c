import type { AttributeEntry } from '../../shared/model/attributes.js';
import { attributeKey, parseAttributeKey, type Namespace } from '../../shared/model/namespaces.js';
import { DEFAULT_CONFIG, DEFAULT_PRIORITY, isBlacklisted } from '../../shared/locators/config.js';
import { formatValueText, type UiValue } from '../../shared/model/values.js';
import { LocatorIndex, proposeLocators, proposeXPaths, type Locator } from '../../shared/locators/generate.js';
import {
  buildLocatorTree,
  type LocatorNode,
  type LocatorNodeInit,
  LocatorXdmTree,
  type LocatorTree,
} from '../../shared/locators/tree.js';
import { selectNodesFast, verifyLocators } from '../../shared/locators/verify-candidates.js';
// The export modules (templates, dogtail paths) load with the first locate or export: check needs neither.
import type { ExportFormat, ExportTarget } from '../../shared/export/templates.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import type { XPathService } from '../xpath/xpath-service.js';
import { selectNodes } from './select-nodes.js';
/** Attribute values as XPath strings by key, the Name always among them. */
function attributeTexts(entries: readonly AttributeEntry[], name: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const entry of entries) attributes.set(attributeKey(entry.namespace, entry.name), formatValueText(entry.value));
  if (!attributes.has('Name')) attributes.set('Name', name);
  return attributes;
}

const PRIORITY_KEYS: ReadonlySet<string> = new Set(DEFAULT_PRIORITY);

const captures = new WeakMap<Runtime, { generation: number; desktop: Promise<LocatorNodeInit> }>();

/** A node of a tree whose attribute values a caller holds already (a check's tree), keyed like JSON output. */
export interface HeldTreeNode {
  readonly key: string;
  readonly namespace: Namespace;
  readonly role: string;
  readonly name: string;
  readonly attributes: ReadonlyMap<string, UiValue>;
  readonly children: readonly HeldTreeNode[];
}

/**
 * Subtrees of the live tree whose priority attributes (DEFAULT_PRIORITY) a caller read in the tree generation named,
 * each under its root's runtime id: the capture takes them as they are instead of asking the runtime again.
 */
export interface HeldSubtrees {
  readonly generation: number;
  readonly roots: readonly HeldTreeNode[];
}

/** The local names of the priority attributes: what a caller holding subtrees for the capture must have read. */
export const PRIORITY_ATTRIBUTE_NAMES: readonly string[] = [
  ...new Set(DEFAULT_PRIORITY.map((key) => parseAttributeKey(key)?.name ?? key)),
];

function priorityCapture(runtime: Runtime, held?: HeldSubtrees): Promise<LocatorNodeInit> {
  const known = captures.get(runtime);
  if (known && known.generation === runtime.generation) return known.desktop;
  const generation = runtime.generation;
  const heldNow = held?.generation === generation ? held.roots : [];
  const desktop = capturePriorityAttributes(runtime, new Map(heldNow.map((root) => [root.key, root])));
  captures.set(runtime, { generation, desktop });
  desktop.catch(() => {
    if (captures.get(runtime)?.desktop === desktop) captures.delete(runtime);
  });
  return desktop;
}

/** A node of the capture: the priority attributes as XPath strings (the Name always among them). */
function captured(
  node: { readonly key: string; readonly namespace: Namespace; readonly role: string; readonly name: string },
  attributes: Map<string, string>,
  children: LocatorNodeInit[],
): LocatorNodeInit {
  if (!attributes.has('Name')) attributes.set('Name', node.name);
  return { key: node.key, name: node.name, namespace: node.namespace, role: node.role, attributes, children };
}

function fromHeld(node: HeldTreeNode): LocatorNodeInit {
  const attributes = new Map<string, string>();
  for (const [key, value] of node.attributes) if (PRIORITY_KEYS.has(key)) attributes.set(key, formatValueText(value));
  return captured(node, attributes, node.children.map(fromHeld));
}

function capturePriorityAttributes(
  runtime: Runtime,
  held: ReadonlyMap<string, HeldTreeNode>,
): Promise<LocatorNodeInit> {
  const names = PRIORITY_ATTRIBUTE_NAMES;
  const read = async (node: RuntimeNode): Promise<readonly AttributeEntry[]> => {
    if (!node.idDefinitive) await node.loadId();
    const held = node.peekAttributesNamed(names);
    if (held) return held;
    const found = await Promise.all(names.map((name) => node.attributesNamed(name)));
    return found.flat();
  };
  const shaped = (node: RuntimeNode, entries: readonly AttributeEntry[], children: LocatorNodeInit[]) => {
    const attributes = new Map<string, string>();
    for (const entry of entries) {
      const key = attributeKey(entry.namespace, entry.name);
      if (PRIORITY_KEYS.has(key)) attributes.set(key, formatValueText(entry.value));
    }
    return captured(
      { key: node.runtimeId, namespace: node.namespace, role: node.role, name: node.name },
      attributes,
      children,
    );
  };
  const below = (node: RuntimeNode, attributes: readonly AttributeEntry[], list: readonly RuntimeNode[]) => {
    const children = list.map(collect);
    if (children.some((child) => child instanceof Promise))
      return Promise.all(children).then((done) => shaped(node, attributes, done));
    return shaped(node, attributes, children as LocatorNodeInit[]);
  };
  // Held values and children (a region after a bulk load) come without a promise each; the rest is read.
  const collect = (node: RuntimeNode): LocatorNodeInit | Promise<LocatorNodeInit> => {
    const heldTree = held.get(node.runtimeId);
    if (heldTree) return fromHeld(heldTree);
    const heldChildren = runtime.peekStructuralChildren(node);
    const heldAttributes = node.idDefinitive ? node.peekAttributesNamed(names) : undefined;
    if (heldChildren && heldAttributes) return below(node, heldAttributes, heldChildren);
    return Promise.all([
      read(node).catch((): readonly AttributeEntry[] => []),
      heldChildren ?? runtime.structuralChildren(node).catch((): readonly RuntimeNode[] => []),
    ]).then(([attributes, children]) => below(node, attributes, children));
  };
  return Promise.resolve(collect(runtime.desktop));
}

/**
 * Whether a locator may use an attribute, by its key alone: not blacklisted (geometry, states, text, header lists
 * ...), or on the priority list (which the capture carries for every node).
 */
function locatable(namespace: Namespace, name: string): boolean {
  const key = attributeKey(namespace, name);
  return PRIORITY_KEYS.has(key) || !isBlacklisted(key, DEFAULT_CONFIG);
}

/**
 * The whole desktop as the tree owns it (grouped view), as a LocatorTree keyed by runtime id. The targets and their
 * ancestors carry every attribute a locator may use (locatable: any of them may end up in a locator; the others
 * are not read: a table's row headers alone cost a call per row); every other node carries only the
 * attributes of the priority list, which is what telling nodes apart needs. Reading every attribute of every node
 * would cost each application a round trip per attribute and node. Locators are verified by the real engine
 * afterwards, so a value not read here can only make a candidate fail verification, never make a wrong one pass.
 * The priority attributes are captured once per tree generation: `locate` of several nodes, and the locate and
 * export requests of the UI for one node, share one capture.
 */
export async function captureLocatorTree(
  runtime: Runtime,
  targets: readonly RuntimeNode[] = [],
  held?: HeldSubtrees,
): Promise<LocatorTree> {
  const fullNodes = new Set<RuntimeNode>();
  for (const target of targets) {
    fullNodes.add(target);
    for (const ancestor of runtime.ancestors(target)) fullNodes.add(ancestor);
  }
  const [desktop, ...full] = await Promise.all([
    priorityCapture(runtime, held),
    ...[...fullNodes].map(async (node) => {
      const entries = await node.attributesWhere(locatable).catch((): readonly AttributeEntry[] => []);
      return [node.runtimeId, attributeTexts(entries, node.name)] as const;
    }),
  ]);
  return buildLocatorTree(desktop.children ?? [], new Map(full));
}

/** Whether the runtime's XPath engine selects exactly the target with a candidate. */
function engineCheck(
  xpath: XPathService,
  target: RuntimeNode,
  timeoutMs: number | undefined,
): (candidate: string) => Promise<{ matches: number; isTarget: boolean }> {
  return async (candidate) => {
    const { items } = await xpath.evaluate(candidate, timeoutMs !== undefined ? { timeoutMs } : {});
    const nodes = items.flatMap((item) => (item.type === 'node' ? [item.node] : []));
    return { matches: items.length, isTarget: nodes.length === 1 && nodes[0]!.runtimeId === target.runtimeId };
  };
}

/** Verified locators kept per node for the tree generation they were made in (at most this many nodes). */
const LOCATED_PER_GENERATION = 1000;
const located = new WeakMap<Runtime, { generation: number; targets: Map<string, Promise<ExportTarget>> }>();

function locatedNow(runtime: Runtime): Map<string, Promise<ExportTarget>> {
  let known = located.get(runtime);
  if (!known || known.generation !== runtime.generation) {
    known = { generation: runtime.generation, targets: new Map() };
    located.set(runtime, known);
  }
  return known.targets;
}

/**
 * Ranked locators for live nodes, each verified through the runtime's XPath service to select exactly that node.
 * Within one tree generation a node's locators are made once: "Find locators" asks for the locators and then for
 * the code of each format, and all of them are answered by the same verified list.
 */
export async function locateNodes(
  runtime: Runtime,
  xpath: XPathService,
  targets: readonly RuntimeNode[],
  options: { timeoutMs?: number } = {},
): Promise<ExportTarget[]> {
  const known = locatedNow(runtime);
  const asked = new Set<string>();
  const missing = targets.filter((target) => {
    const fresh = !known.has(target.runtimeId) && !asked.has(target.runtimeId);
    asked.add(target.runtimeId);
    return fresh;
  });
  if (missing.length > LOCATED_PER_GENERATION) return makeLocators(runtime, xpath, targets, options);
  if (missing.length > 0) {
    const made = makeLocators(runtime, xpath, missing, options);
    missing.forEach((target, i) => {
      const one = made.then((list) => list[i]!);
      known.set(target.runtimeId, one);
      one.catch(() => {
        if (known.get(target.runtimeId) === one) known.delete(target.runtimeId);
      });
    });
  }
  const answers = targets.map((target) => known.get(target.runtimeId)!);
  while (known.size > LOCATED_PER_GENERATION) known.delete(known.keys().next().value!);
  return Promise.all(answers);
}

async function makeLocators(
  runtime: Runtime,
  xpath: XPathService,
  targets: readonly RuntimeNode[],
  options: { timeoutMs?: number },
): Promise<ExportTarget[]> {
  const [tree, { dogtailPath }] = await Promise.all([
    captureLocatorTree(runtime, targets),
    import('../../shared/export/dogtail.js'),
  ]);
  const byKey = new Map<string, LocatorNode>(tree.nodes.map((node) => [node.key, node]));
  const index = new LocatorIndex(tree);
  const out: ExportTarget[] = [];
  for (const target of targets) {
    const node = byKey.get(target.runtimeId);
    const proposed = node ? proposeLocators(index, node) : [];
    const locators = await verifyLocators(
      proposed,
      engineCheck(xpath, target, options.timeoutMs),
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

/**
 * Candidates a search for a finding's one locator counts after it holds a unique one, to rank a second against it.
 * The full budget (400) goes into finding the first; unnamed nodes deep in a page (a check's typical findings) would
 * otherwise spend all of it on a second candidate that rarely ranks better.
 */
const BEST_LOCATOR_BUDGET_AFTER_FIRST = 50;

/**
 * The best verified locator of each target, by runtime id (what a check finding names), made for many targets at
 * once: from the per-generation capture of the priority attributes (no target's every attribute is read), a search
 * that stops after a few candidates, and verification in this process by the real XPath engine over that one
 * capture (no round trip to the XPath worker per candidate). A candidate can only use captured values, and the
 * capture holds them for every node, so one that selects its target alone there does so in the live tree. `held`
 * subtrees (the check's own tree, read in the same generation) go into the capture without being read again.
 */
export async function bestLocatorOfEach(
  runtime: Runtime,
  targets: readonly RuntimeNode[],
  held?: HeldSubtrees,
): Promise<ReadonlyMap<string, string>> {
  const located = new Map<string, string>();
  if (targets.length === 0) return located;
  const tree = await captureLocatorTree(runtime, [], held);
  const index = new LocatorIndex(tree, { maxResults: 1, budgetAfterFirst: BEST_LOCATOR_BUDGET_AFTER_FIRST });
  const xdm = new LocatorXdmTree(tree);
  const byKey = new Map<string, LocatorNode>(tree.nodes.map((node) => [node.key, node]));
  const selectsAlone = async (node: LocatorNode, xpath: string) => {
    try {
      // The full engine (fontoxpath, slow to load) only for a candidate outside the fast path's subset.
      const selected =
        selectNodesFast(xdm, xpath, { limit: 2 }) ??
        (await import('../../shared/locators/verify.js')).selectNodes(xdm, xpath);
      return selected.length === 1 && selected[0] === node;
    } catch {
      return false;
    }
  };
  for (const target of targets) {
    const node = byKey.get(target.runtimeId);
    if (!node) continue;
    for (const xpath of proposeXPaths(index, node)) {
      if (!(await selectsAlone(node, xpath))) continue;
      located.set(target.runtimeId, xpath);
      break;
    }
  }
  return located;
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
  const { parseExportAction, renderExport } = await import('../../shared/export/templates.js');
  const parsedAction = parseExportAction(action);
  const targets = await locateNodes(runtime, xpath, [node]);
  return {
    code: renderExport(format, targets, parsedAction),
    locators: (targets[0]?.locators ?? []).map((locator) => ({ ...locator })),
  };
}
