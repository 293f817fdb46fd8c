import type { AttributeEntry } from '../../shared/model/attributes.js';
import type { Namespace } from '../../shared/model/namespaces.js';
import type { XdmTree } from '../../shared/xpath/tree.js';
import type { DesktopInfo } from './platform.js';

/**
 * A backend's tree read straight from a file, without a runtime: the CLI's `query` and `snapshot` over a mock file
 * alone answer from it under the XPath fast path. The same nodes, ids, names, attributes and shape the runtime gives
 * over that backend (a differential test holds them together). Nodes are numbers; `root` is the desktop.
 */
export interface FileTree extends XdmTree<number> {
  /** The nodes read (what `--stats` reports as fetched). */
  readonly size: number;
  /** Every node's RuntimeId, by node (made on first use). */
  readonly runtimeIds: readonly string[];
  namespace(node: number): Namespace;
  localName(node: number): string;
  name(node: number): string;
  /** A node's attributes as the runtime lists them; `entriesNamed` only those of one name. */
  entries(node: number): readonly AttributeEntry[];
  entriesNamed(node: number, localName: string): readonly AttributeEntry[];
  /** A node's children as its owner holds them (the snapshot's shape: windows under their application). */
  structuralChildren(node: number): readonly number[];
  /** Throws a timeout once `deadline` (performance.now()) passed; `timeoutMs` is what the error names. */
  checkCancelled(): void;
  deadline: number;
  timeoutMs: number;
}

/** How a backend reads its file (registered with registerFileTreeReader; the mock backend's `--mock-file`). */
export interface FileTreeReader {
  /** The backend whose file this reads (its provider id). */
  readonly backendId: string;
  read(file: string, options: { maxDepth?: number }): FileTree;
  /** The desktop the backend's platform reports for this file. */
  desktopInfo(file: string, options: { maxDepth?: number }): DesktopInfo;
}
