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
  /** Problems found in the tree (cycles, absurd child counts), reported in status. */
  problems: string[];
  gone: boolean;
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
  /** The object is gone (application exited, object destroyed). */
  invalid: boolean;
  /** Object attributes (GetAttributes), read lazily. */
  objectAttributes: { [key: string]: string } | undefined;
  /** Once an element is known to hold a secret it stays secure for its lifetime, whatever is invalidated. */
  knownSecure: boolean;
}

export interface NodeHeader {
  role: number;
  name: string;
  description: string;
  accessibleId: string;
  states: number[];
  interfaces: string[];
  childCount: number;
}

export function newNodeData(
  ref: ObjectRef,
  app: ApplicationData,
  parentKey: string | undefined,
  header: NodeHeader,
  key?: string,
): NodeData {
  return {
    key: key ?? runtimeIdOf(ref),
    ref,
    app,
    parentKey,
    ...header,
    children: undefined,
    stale: false,
    invalid: false,
    objectAttributes: undefined,
    knownSecure: false,
  };
}

const FULL_INTERFACE_NAMES = new Map<string, string>();

/** True when the node implements `org.a11y.atspi.<short>`. */
export function hasInterface(data: NodeData, short: string): boolean {
  let full = FULL_INTERFACE_NAMES.get(short);
  if (full === undefined) {
    full = `org.a11y.atspi.${short}`;
    FULL_INTERFACE_NAMES.set(short, full);
  }
  return data.interfaces.includes(full);
}
