import {
  HELD_CHECK_ATTRIBUTE_NAMES,
  onDemandCheckAttributes,
  TABLE_HEADER_ATTRIBUTE_NAMES,
} from '../../shared/checks/attributes.js';
import type { CheckConfig } from '../../shared/checks/config.js';
import { runChecks, type CheckReport } from '../../shared/checks/engine.js';
import { isShowingByAttributes, SHOWING_ATTRIBUTE_KEYS } from '../../shared/checks/facts.js';
import { attachFact, newCheckNode, walkCheckTree, type CheckNode } from '../../shared/checks/model.js';
import { needsTableHeaderAttributes } from '../../shared/checks/rules/role-requirements.js';
import { attributeKey } from '../../shared/model/namespaces.js';
import { AttributeNames, type AttributeEntry } from '../../shared/model/attributes.js';
import { uiArray, uiString, type UiValue } from '../../shared/model/values.js';
import { InspectorError } from '../../shared/model/errors.js';
import { loadHeldIds } from '../runtime/held-ids.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import type { XPathService } from '../xpath/xpath-service.js';
import { selectNodes, selectRoots } from './select-nodes.js';
import { PRIORITY_ATTRIBUTE_NAMES, type HeldSubtrees } from './locate.js';
import { measureContrast } from './contrast.js';
import { textContrast } from '../../shared/checks/rules/text-contrast.js';
import { TAB_ORDER_RULE_IDS } from '../../shared/checks/rules/tab-order.js';
import type { TabOrderOptions, TabOrderWindow } from './tab-order.js';

export interface AccessibilityCheckOptions {
  /** XPath selecting the subtrees to check; the whole desktop when neither it nor `root` is given. */
  readonly xpath?: string;
  /** The one subtree to check (the UI's selected node). */
  readonly root?: RuntimeNode;
  readonly config: CheckConfig;
  readonly only?: ReadonlySet<string>;
  readonly timeoutMs?: number;
  /** Text contrast from a screenshot (default: where the platform takes screenshots). */
  readonly contrast?: boolean;
  /** Walks the tab order with the platform keyboard (the rules tab-unreachable and tab-trap run only then). */
  readonly tabOrder?: TabOrderOptions;
  /** Findings that get a verified locator; the rest report none (each locator costs a search and a verifying query). */
  readonly maxLocated?: number;
  /**
   * Best verified locators of live nodes, by runtime id (the locator service); `held` is the checked tree, which
   * holds the locator capture's priority attributes of every node in it.
   */
  readonly locate?: (targets: readonly RuntimeNode[], held: HeldSubtrees) => Promise<ReadonlyMap<string, string>>;
}

export interface AccessibilityCheckResult {
  readonly report: CheckReport;
  /** The best verified locator of a finding's node, where one was computed. */
  readonly locatorOf: (node: CheckNode) => string | undefined;
  /** The tab order of each window walked, where the walk was asked for. */
  readonly tabOrder?: readonly TabOrderWindow[];
}

const DEFAULT_MAX_LOCATED = 500;

/**
 * What every node's read holds when the findings get locators: the rules' attributes and the locator capture's
 * priority attributes (the locators are made over this same tree, which then is not read a second time).
 */
const LOCATED_NAMES: readonly string[] = [...new Set([...HELD_CHECK_ATTRIBUTE_NAMES, ...PRIORITY_ATTRIBUTE_NAMES])];

/** How a check reads the tree: the runtime, and the attribute names every node's read holds. */
interface TreeRead {
  readonly runtime: Runtime;
  readonly names: readonly string[];
}

/** The SupportedPatterns entry of each set of patterns, made once: the nodes of a page share a few sets. */
const patternEntries = new Map<string, AttributeEntry>();
const MAX_PATTERN_SETS = 1000;

function patternsEntry(patterns: readonly string[]): AttributeEntry {
  const key = patterns.join('\n');
  let entry = patternEntries.get(key);
  if (!entry) {
    entry = { namespace: 'control', name: AttributeNames.SupportedPatterns, value: uiArray(patterns.map(uiString)) };
    if (patternEntries.size < MAX_PATTERN_SETS) patternEntries.set(key, entry);
  }
  return entry;
}

function onDemandOf(node: RuntimeNode, held: readonly AttributeEntry[]): readonly string[] {
  const showingAttributes = new Map<string, UiValue>();
  for (const entry of held) {
    const key = attributeKey(entry.namespace, entry.name);
    if (SHOWING_ATTRIBUTE_KEYS.has(key)) showingAttributes.set(key, entry.value);
  }
  return onDemandCheckAttributes(node.namespace, node.role, node.name, isShowingByAttributes(showingAttributes));
}

function readNamed(node: RuntimeNode, names: readonly string[]): Promise<AttributeEntry[]> {
  return Promise.all(names.map((name) => node.attributesNamed(name).catch((): readonly AttributeEntry[] => []))).then(
    (found) => found.flat(),
  );
}

/**
 * What the rules read of a node: held values and patterns without a promise (after a bulk load), and the attributes
 * that cost a call only where a rule looks at them (bounds of a showing node, a label relation of a field without a
 * name ...). Synchronous when everything is held.
 */
function checkAttributes(
  node: RuntimeNode,
  names: readonly string[],
): readonly AttributeEntry[] | Promise<readonly AttributeEntry[]> {
  const held = node.peekAttributesNamed(names);
  const patterns = node.peekSupportedPatterns();
  if (held && patterns) {
    const onDemand = onDemandOf(node, held);
    const heldOnDemand = onDemand.length === 0 ? [] : node.peekAttributesNamed(onDemand);
    if (heldOnDemand) return [...held, patternsEntry(patterns), ...heldOnDemand];
    return readNamed(node, onDemand).then((asked) => [...held, patternsEntry(patterns), ...asked]);
  }
  return readCheckAttributes(node, names);
}

async function readCheckAttributes(node: RuntimeNode, names: readonly string[]): Promise<readonly AttributeEntry[]> {
  const held = node.peekAttributesNamed(names) ?? (await readNamed(node, names));
  const [patterns, asked] = await Promise.all([
    node.supportedPatterns().catch((): readonly string[] => []),
    readNamed(node, onDemandOf(node, held)),
  ]);
  return [...held, patternsEntry(patterns), ...asked];
}

/**
 * Loads the subtree below a root (an application's windows start its bulk load: the rest is then held) and makes
 * the ids of its nodes definitive at once, so that the provider's held values serve every attribute the rules read
 * without a promise each (peekAttributesNamed).
 */
async function loadRegion(root: RuntimeNode, runtime: Runtime): Promise<void> {
  // Held children are walked without a promise each; only those still to be fetched wait.
  const loadAll = (children: readonly RuntimeNode[]): Promise<unknown> | undefined => {
    let pending: Promise<unknown>[] | undefined;
    for (const child of children) {
      const loading = load(child);
      if (loading) (pending ??= []).push(loading);
    }
    return pending && Promise.all(pending);
  };
  const load = (node: RuntimeNode): Promise<unknown> | undefined => {
    const held = runtime.peekStructuralChildren(node);
    if (held) return loadAll(held);
    return runtime
      .structuralChildren(node)
      .catch((): readonly RuntimeNode[] => [])
      .then(loadAll);
  };
  await load(root);
  const tops =
    root === runtime.desktop
      ? (runtime.peekStructuralChildren(root) ?? (await runtime.structuralChildren(root)))
      : [root];
  await loadHeldIds(tops).catch(() => undefined);
}

/**
 * The subtree below a root, under the root's ancestors (one child each, checked by no rule): rules that look up (an
 * element outside its window, a selected item's container) see the root's surroundings. `path` names the topmost
 * node where it has no runtime id (see newCheckNode).
 */
async function collectWithAncestors(root: RuntimeNode, read: TreeRead, path: string): Promise<CheckNode> {
  const { runtime } = read;
  const ancestors = runtime.ancestors(root).filter((ancestor) => ancestor !== runtime.desktop);
  await loadRegion(root, runtime);
  let parent: (CheckNode & { children: CheckNode[] }) | undefined;
  for (const ancestor of ancestors.reverse()) {
    const node = newCheckNode(
      ancestor.namespace,
      ancestor.role,
      await checkAttributes(ancestor, read.names),
      parent,
      path,
      ancestor.runtimeId,
    );
    parent?.children.push(node);
    parent = node;
    path = `${path}/1`;
  }
  const tree = await collect(root, read, parent, path);
  parent?.children.push(tree);
  return tree;
}

/** A node's subtree as the rules read it; synchronous as far as everything is held (no promise per node then). */
function collect(
  node: RuntimeNode,
  read: TreeRead,
  parent: CheckNode | undefined,
  path: string,
): CheckNode | Promise<CheckNode> {
  const { runtime } = read;
  const attributes = checkAttributes(node, read.names);
  const children =
    runtime.peekStructuralChildren(node) ?? runtime.structuralChildren(node).catch((): readonly RuntimeNode[] => []);
  if (attributes instanceof Promise || children instanceof Promise) {
    return Promise.all([attributes, children]).then(([entries, found]) =>
      assemble(node, entries, found, read, parent, path),
    );
  }
  return assemble(node, attributes, children, read, parent, path);
}

function assemble(
  node: RuntimeNode,
  attributes: readonly AttributeEntry[],
  children: readonly RuntimeNode[],
  read: TreeRead,
  parent: CheckNode | undefined,
  path: string,
): CheckNode | Promise<CheckNode> {
  const built = newCheckNode(node.namespace, node.role, attributes, parent, path, node.runtimeId);
  const collected = children.map((child, index) => collect(child, read, built, `${path}/${index + 1}`));
  if (collected.some((child) => child instanceof Promise)) {
    return Promise.all(collected).then((list) => {
      for (const child of list) built.children.push(child);
      return built;
    });
  }
  for (const child of collected as CheckNode[]) built.children.push(child);
  return built;
}

/** Reads the header lists of the tables whose children hold no header (the one rule that needs them looks there). */
async function readTableHeaders(trees: readonly CheckNode[], runtime: Runtime): Promise<void> {
  const reads: Promise<void>[] = [];
  for (const checkNode of walkCheckTree(trees)) {
    const node = needsTableHeaderAttributes(checkNode) ? runtime.node(checkNode.key) : undefined;
    if (!node) continue;
    reads.push(
      readNamed(node, TABLE_HEADER_ATTRIBUTE_NAMES).then((entries) => {
        for (const entry of entries)
          if (!entry.derived) attachFact(checkNode, attributeKey(entry.namespace, entry.name), entry.value);
      }),
    );
  }
  await Promise.all(reads);
}

/**
 * Runs the accessibility rules over the subtrees an XPath selects (or the desktop): reads what the rules need of
 * every node, resolves the config's ignore locators to nodes, and gives the findings' nodes verified locators.
 */
export async function checkAccessibility(
  runtime: Runtime,
  xpath: XPathService,
  options: AccessibilityCheckOptions,
): Promise<AccessibilityCheckResult> {
  const roots = options.root
    ? [options.root]
    : options.xpath
      ? await selectRoots(runtime, () => xpath, options.xpath, options.timeoutMs)
      : [runtime.desktop];
  const generation = runtime.generation;
  const read: TreeRead = { runtime, names: options.locate ? LOCATED_NAMES : HELD_CHECK_ATTRIBUTE_NAMES };
  const trees = await Promise.all(roots.map((root, index) => collectWithAncestors(root, read, `/${index + 1}`)));
  await readTableHeaders(trees, runtime);
  const ignored = new Map<string, Set<string>>();
  for (const entry of options.config.ignore) {
    const nodes = await selectNodes(xpath, entry.locator, options.timeoutMs).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      throw new InspectorError('usage', `the config's ignore locator ${entry.locator} cannot be used: ${message}`);
    });
    const key = entry.rule ?? '*';
    const set = ignored.get(key) ?? new Set<string>();
    for (const node of nodes) set.add(node.runtimeId);
    ignored.set(key, set);
  }
  const measured = options.contrast !== false && (await measureContrast(runtime, trees));
  // After the contrast: the walk brings windows to the front and may draw markers on the screen.
  const tabOrder = options.tabOrder
    ? await (await import('./tab-order.js')).walkTabOrder(runtime, xpath, trees, options.tabOrder)
    : undefined;
  const unavailable = new Set([...(measured ? [] : [textContrast.id]), ...(tabOrder ? [] : TAB_ORDER_RULE_IDS)]);
  const report = runChecks(trees, {
    config: options.config,
    unavailable,
    ...(options.only ? { only: options.only } : {}),
    ignored,
  });
  const targets: RuntimeNode[] = [];
  const seen = new Set<string>();
  for (const finding of report.findings) {
    if (seen.size >= (options.maxLocated ?? DEFAULT_MAX_LOCATED) || seen.has(finding.node.key)) continue;
    seen.add(finding.node.key);
    const node = runtime.node(finding.node.key);
    if (node) targets.push(node);
  }
  const located = options.locate ? await options.locate(targets, { generation, roots: trees }) : new Map();
  return { report, locatorOf: (node) => located.get(node.key), ...(tabOrder ? { tabOrder } : {}) };
}
