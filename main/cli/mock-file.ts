import { attributeValueOf, type AttributeEntry } from '../../shared/model/attributes.js';
import { InspectorError } from '../../shared/model/errors.js';
import { namespaceFromUri, type Namespace } from '../../shared/model/namespaces.js';
import { uiBool, uiInteger, uiNumber, uiString, type UiValue } from '../../shared/model/values.js';
import { compileFastPath, FastPathFallback, type FastItemMaker } from '../../shared/xpath/fast/index.js';
import { DESKTOP_RUNTIME_ID, DesktopSource, FALLBACK_DESKTOP } from '../runtime/desktop.js';
import type { FileTree } from '../core/file-tree.js';
import { attributesNamedFrom, composeAttributes, type NodeFacts } from '../core/node-attributes.js';
import { fileTreeReaderFor } from '../core/registry.js';
import type { RuntimeCliOptions } from './command-runtime.js';
import { writeStats } from './options.js';
import type { QueryOptions } from './commands/query.js';
import type { SnapshotOptions } from './commands/snapshot.js';
import type { SnapshotStreamWriter } from '../../shared/snapshot/xml-writer.js';
import type { StreamPace } from '../services/snapshot-stream.js';
import type { CollectedNode, NodeIdentity, OutputItem, SelectOptions, SnapshotEntry } from '../services/snapshot.js';
import { itemJsonOf, itemText, readSelectedFrom, selectAttributes } from '../services/snapshot.js';

/**
 * `query` and `snapshot` over a `--mock-file` alone, in the CLI's own thread: the file goes straight to the XPath
 * fast path (the mock backend's FileTree, found in the registry), without the runtime, the XPath worker, the bridge or fontoxpath. Answers are the
 * ones the runtime gives (a differential test holds them together); a query outside the fast path's subset, or one
 * it leaves to fontoxpath (FastPathFallback), is declined, and the command takes the general path.
 */

/** A node of the file (or the desktop) with what output reads of it. */
export interface MockFileNode extends NodeIdentity {
  /** The node in the tree (the tree's root for the desktop). */
  readonly index: number;
  attributes(): readonly AttributeEntry[];
  attributesNamed(name: string): readonly AttributeEntry[];
}

export interface OpenedMockFile {
  tree: FileTree;
  view(node: number): MockFileNode;
}

/** The opened file when the command reads only a mock file (no other provider, no platform but the mock's or none). */
export async function openMockFile(options: RuntimeCliOptions): Promise<OpenedMockFile | undefined> {
  const providers = options.provider ?? [];
  if (!options.mockFile || !providers.every((id) => id === 'mock')) return undefined;
  if (options.platform !== undefined && options.platform !== 'mock' && options.platform !== 'none') return undefined;
  const reader = await fileTreeReaderFor('mock');
  if (!reader) return undefined;
  const maxDepth = options.mockMaxDepth;
  const readOptions = maxDepth !== undefined ? { maxDepth } : {};
  const tree = reader.read(options.mockFile, readOptions);
  const info = options.platform === 'none' ? FALLBACK_DESKTOP : reader.desktopInfo(options.mockFile, readOptions);
  const source = new DesktopSource(info, []);
  const facts: NodeFacts = {
    runtimeId: DESKTOP_RUNTIME_ID,
    name: info.name,
    id: undefined,
    technology: info.technology,
    isSecure: false,
  };
  const provided = source.desktopAttributes();
  const patterns = ['Element', 'Desktop'];
  let entries: AttributeEntry[] | undefined;
  const desktop: MockFileNode = {
    index: tree.root,
    runtimeId: DESKTOP_RUNTIME_ID,
    namespace: 'control',
    role: source.role,
    name: info.name,
    attributes: () => (entries ??= composeAttributes(provided, facts, patterns)),
    attributesNamed: (name) =>
      entries
        ? entries.filter((entry) => entry.name === name)
        : attributesNamedFrom(name, provided, facts, () => patterns),
  };
  const view = (node: number): MockFileNode =>
    node === tree.root
      ? desktop
      : {
          index: node,
          // Made on first use: text output never needs the ids.
          get runtimeId() {
            return tree.runtimeIds[node]!;
          },
          namespace: tree.namespace(node),
          role: tree.localName(node),
          name: tree.name(node),
          attributes: () => tree.entries(node),
          attributesNamed: (name) => tree.entriesNamed(node, name),
        };
  return { tree, view };
}

type FileItem =
  | { type: 'node'; node: number }
  | { type: 'attribute'; owner: number; namespace: Namespace; name: string; text: string }
  | { type: 'value'; value: UiValue };

const FILE_ITEMS: FastItemMaker<number, FileItem> = {
  node: (node) => ({ type: 'node', node }),
  attribute: (owner, namespaceUri, localName, text) => ({
    type: 'attribute',
    owner,
    namespace: namespaceFromUri(namespaceUri) ?? 'control',
    name: localName,
    text,
  }),
  value: (value) => ({
    type: 'value',
    value:
      typeof value === 'number'
        ? Number.isInteger(value)
          ? uiInteger(value)
          : uiNumber(value)
        : typeof value === 'boolean'
          ? uiBool(value)
          : uiString(value),
  }),
};

/**
 * Evaluates `xpath` over the file with the fast path; undefined when the fast path declines (outside its subset,
 * or XPath might raise an error only fontoxpath can name).
 */
export function evaluateMockFile(
  opened: OpenedMockFile,
  xpath: string,
  timeoutMs: number | undefined,
): OutputItem<MockFileNode>[] | undefined {
  let query;
  try {
    query = compileFastPath(xpath);
  } catch {
    return undefined; // the general path reports what is wrong with the expression
  }
  if (!query) return undefined;
  const { tree, view } = opened;
  startDeadline(tree, timeoutMs);
  const items: FileItem[] = [];
  try {
    for (const item of query.evaluateAs(tree, tree.root, FILE_ITEMS)) items.push(item);
  } catch (error) {
    if (error instanceof FastPathFallback) return undefined;
    throw error;
  }
  return items.map((item): OutputItem<MockFileNode> => {
    if (item.type === 'value') return item;
    if (item.type === 'node') return { type: 'node', node: view(item.node) };
    const owner = view(item.owner);
    const value = attributeValueOf(owner.attributesNamed(item.name), item.namespace, item.text);
    return { type: 'attribute', owner, namespace: item.namespace, name: item.name, value };
  });
}

/**
 * The subtree of a node as `snapshot` collects it (collectSubtree: the tree's own shape, applications under the
 * desktop and windows under their application), built without recursion.
 */
export function collectMockSubtree(
  opened: OpenedMockFile,
  root: number,
  options: SelectOptions & { maxDepth: number | undefined },
): CollectedNode {
  const { tree } = opened;
  const make = (node: number): CollectedNode => ({ ...mockEntry(opened, node, options), children: [] });
  const top = make(root);
  const pending: Array<[number, CollectedNode, number]> = [[root, top, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, collected, depth] = next;
    if (options.maxDepth !== undefined && depth >= options.maxDepth) continue;
    for (const child of tree.structuralChildren(node)) {
      const made = make(child);
      collected.children.push(made);
      pending.push([child, made, depth + 1]);
    }
  }
  return top;
}

/** What a snapshot writes of a node of the file. */
function mockEntry(opened: OpenedMockFile, node: number, options: SelectOptions): SnapshotEntry {
  opened.tree.checkCancelled();
  const identity = opened.view(node);
  return {
    runtimeId: identity.runtimeId,
    name: identity.name,
    namespace: identity.namespace,
    role: identity.role,
    attributes: selectAttributes(readSelectedFrom(identity, options), options),
  };
}

/** Ends the node opened last (no node of a file has this index: the document is DOCUMENT, the others from 0). */
const CLOSE = Number.MIN_SAFE_INTEGER;

/**
 * Writes the subtree of a node of the file as collectMockSubtree collects it, node by node as it goes (nothing of the
 * tree is kept), without recursion.
 */
async function streamMockSubtree(
  opened: OpenedMockFile,
  root: number,
  options: SelectOptions & { maxDepth: number | undefined },
  writer: SnapshotStreamWriter<SnapshotEntry>,
  pace: StreamPace,
): Promise<void> {
  const { tree } = opened;
  // Pending nodes with their depth, the next on top; CLOSE after each opened node's children.
  const pending: number[] = [root, 0];
  while (pending.length > 0) {
    const depth = pending.pop()!;
    const node = pending.pop()!;
    if (node === CLOSE) {
      writer.close();
      continue;
    }
    writer.open(mockEntry(opened, node, options));
    pending.push(CLOSE, depth);
    if (options.maxDepth === undefined || depth < options.maxDepth) {
      const children = tree.structuralChildren(node);
      for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!, depth + 1);
    }
    const wait = pace.backpressure();
    if (wait) await wait;
  }
}

/** Sets the time after which the tree's checkCancelled() ends the command (exit 4). */
function startDeadline(tree: FileTree, timeoutMs: number | undefined): void {
  tree.timeoutMs = timeoutMs ?? 0;
  tree.deadline = timeoutMs === undefined ? Infinity : performance.now() + timeoutMs;
}

/** `query` over a mock file alone; false when the fast path declines (the caller takes the general path). */
export async function queryMockFile(xpath: string, options: QueryOptions): Promise<boolean> {
  const opened = await openMockFile(options);
  if (!opened) return false;
  const started = performance.now();
  const items = evaluateMockFile(opened, xpath, options.timeout);
  if (!items) return false;
  const select = { attrs: options.attrs, includeRuntimeId: false };
  if (options.format === 'json') {
    const out = items.map((item) =>
      itemJsonOf(item, item.type === 'node' ? readSelectedFrom(item.node, select) : [], select),
    );
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    let text = '';
    for (const item of items) text += `${itemText(item)}\n`;
    process.stdout.write(text);
  }
  if (options.stats) {
    writeStats({ evalMs: performance.now() - started, nodesFetched: opened.tree.size, results: items.length });
  }
  return true;
}

/** `snapshot` over a mock file alone; false when the fast path declines. */
export async function snapshotMockFile(xpath: string, options: SnapshotOptions): Promise<boolean> {
  const opened = await openMockFile(options);
  if (!opened) return false;
  const started = performance.now();
  const items = evaluateMockFile(opened, xpath, options.timeout);
  if (!items) return false;
  const roots = items.flatMap((item): MockFileNode[] => (item.type === 'node' ? [item.node] : []));
  if (roots.length !== items.length) {
    throw new InspectorError('usage', `snapshot needs an XPath that selects nodes; "${xpath}" selected other items`);
  }
  startDeadline(opened.tree, options.timeout);
  const { snapshotSelection, streamSnapshotOutput } = await import('./snapshot-output.js');
  const select = { ...snapshotSelection(options), maxDepth: options.maxDepth };
  await streamSnapshotOutput(roots, options, (root, writer, pace) =>
    streamMockSubtree(opened, root.index, select, writer, pace),
  );
  if (options.stats) {
    writeStats({ evalMs: performance.now() - started, nodesFetched: opened.tree.size, results: roots.length });
  }
  return true;
}
