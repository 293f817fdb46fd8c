import type { ObjectRef } from './atspi-calls.js';
import type { ProcessInfo } from './process-info.js';

/**
 * What the provider knows about one accessible object and one application. Data is fetched once and served from
 * here until an event or `invalidate()` marks it stale.
 */

export function runtimeIdOf(ref: ObjectRef): string {
  return `atspi://${ref[0]}${ref[1]}`;
}

export interface ApplicationData {
  busName: string;
  root: ObjectRef;
  processId: number | undefined;
  processInfo: ProcessInfo | undefined;
  /** 'none' until the bulk load ran; 'loaded' when the whole tree came in bulk; 'lazy' when it must be walked. */
  bulk: 'none' | 'loading' | 'loaded' | 'lazy';
  bulkPromise: Promise<void> | undefined;
  /** How the tree was loaded, for status and benchmarks. */
  loadedBy: string | undefined;
  /**
   * Developer ids: 'loaded' when every node of the application the store holds has its AccessibleId, 'deferred'
   * when a bulk load from a complete cache left them out (they are read in one bulk call on the first loadIds).
   */
  ids: 'loaded' | 'deferred';
  /** Set once anyone asked for ids: later bulk loads of this application read them eagerly. */
  idsWanted: boolean;
  /**
   * Set when every attribute of the application's nodes will be read (a snapshot with all attributes): its next
   * bulk load brings the object attributes along (loadedAttributes).
   */
  attributesWanted?: boolean;
  idsPromise: Promise<void> | undefined;
  /** Problems found in the tree (cycles, absurd child counts), reported in status. */
  problems: string[];
  gone: boolean;
  /**
   * False while the application does not answer (its root's header timed out): it is shown with what the bus and
   * /proc know, without children, until a later look finds it answering again.
   */
  responding: boolean;
  /** How a lazy walk lists this application's children (decided once from its toolkit; tree-loader.ts). */
  listing?: Promise<'GetChildren' | 'GetChildAtIndex'>;
}

export interface NodeData {
  readonly key: string;
  readonly ref: ObjectRef;
  readonly app: ApplicationData;
  parentKey: string | undefined;
  role: number;
  name: string;
  description: string;
  accessibleId: string;
  states: number[];
  interfaces: string[];
  childCount: number;
  /** Ordered child keys once known; undefined while not loaded (or after invalidation). */
  children: string[] | undefined;
  /** Header (role, name, states, interfaces) must be re-read before it is trusted again. */
  stale: boolean;
  /**
   * States and interfaces not read yet: a bulk load that could not take them from the cache reads them after the
   * structure, roles and names (TreeLoader.completeHeader); whatever needs them reads them first.
   */
  partial: boolean;
  /** The object is gone (application exited, object destroyed). */
  invalid: boolean;
  /** Object attributes (GetAttributes), read lazily. */
  objectAttributes: { [key: string]: string } | undefined;
  /**
   * Object attributes a bulk load brought (GetTree with `Attributes`), taken by the first read of them instead of a
   * GetAttributes call; dropped with the node's read values and on any change.
   */
  loadedAttributes: { [key: string]: string } | undefined;
  /** The text state the same bulk load brought (never for a secret text), taken once like loadedAttributes. */
  loadedTextState: { characterCount: number; caretOffset: number } | undefined;
  /** Once an element is known to hold a secret it stays secure for its lifetime, whatever is invalidated. */
  knownSecure: boolean;
  /** The provider's node object for this data, made on first use (a field, not a weak map of ten thousand). */
  view: object | undefined;
}

export interface NodeHeader {
  role: number;
  name: string;
  description: string;
  accessibleId: string;
  states: number[];
  interfaces: string[];
  childCount: number;
  /** States and interfaces are placeholders still to be read (NodeData.partial). */
  partial: boolean;
}

/** An application just met: nothing of its tree loaded, its ids definitive, responding. */
export function newApplicationData(busName: string, root: ObjectRef): ApplicationData {
  return {
    busName,
    root,
    processId: undefined,
    processInfo: undefined,
    bulk: 'none',
    bulkPromise: undefined,
    loadedBy: undefined,
    ids: 'loaded',
    idsWanted: false,
    idsPromise: undefined,
    problems: [],
    gone: false,
    responding: true,
  };
}

export function newNodeData(
  ref: ObjectRef,
  app: ApplicationData,
  parentKey: string | undefined,
  header: Omit<NodeHeader, 'accessibleId' | 'childCount' | 'partial'> &
    Partial<Pick<NodeHeader, 'accessibleId' | 'childCount' | 'partial'>>,
  key?: string,
): NodeData {
  // Written out (not spread) so every node has the same shape.
  return {
    key: key ?? runtimeIdOf(ref),
    ref,
    app,
    parentKey,
    role: header.role,
    name: header.name,
    description: header.description,
    accessibleId: header.accessibleId ?? '',
    states: header.states,
    interfaces: header.interfaces,
    childCount: header.childCount ?? 0,
    children: undefined,
    stale: false,
    partial: header.partial ?? false,
    invalid: false,
    objectAttributes: undefined,
    loadedAttributes: undefined,
    loadedTextState: undefined,
    knownSecure: false,
    view: undefined,
  };
}

const interned = new Map<string, string[]>();
const interfaceSets = new WeakMap<readonly string[], Set<string>>();

/**
 * One shared array per distinct interface list: ten thousand nodes of a page have a handful of distinct lists, and
 * hasInterface answers from one set per list instead of comparing strings per node.
 */
export function internInterfaces(list: readonly string[]): string[] {
  const key = list.join(' ');
  let shared = interned.get(key);
  if (!shared) {
    shared = [...list];
    if (interned.size < 10_000) interned.set(key, shared);
  }
  return shared;
}

/** Interfaces as bits (INTERFACE_BIT), one lookup per node for code that tests several. */
export const INTERFACE_BIT = {
  Component: 1,
  Text: 2,
  EditableText: 4,
  Value: 8,
  Selection: 16,
  Action: 32,
  Table: 64,
  Image: 128,
  Application: 256,
} as const;
const interfaceMasks = new WeakMap<readonly string[], number>();

export function interfaceMask(data: NodeData): number {
  let mask = interfaceMasks.get(data.interfaces);
  if (mask === undefined) {
    mask = 0;
    for (const [short, bit] of Object.entries(INTERFACE_BIT)) if (hasInterface(data, short)) mask |= bit;
    interfaceMasks.set(data.interfaces, mask);
  }
  return mask;
}

/** True when the node implements `org.a11y.atspi.<short>`. */
export function hasInterface(data: NodeData, short: string): boolean {
  let set = interfaceSets.get(data.interfaces);
  if (!set) {
    set = new Set(data.interfaces.map((name) => name.replace('org.a11y.atspi.', '')));
    interfaceSets.set(data.interfaces, set);
  }
  return set.has(short);
}
