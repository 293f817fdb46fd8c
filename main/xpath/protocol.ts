import type { InspectorErrorData } from '../../shared/model/errors.js';
import type { Namespace } from '../../shared/model/namespaces.js';
import type { RecordBlock } from './record-block.js';

/**
 * Messages between the runtime (main thread) and the XPath worker.
 *
 * Why a worker and a blocking bridge: fontoxpath is synchronous, providers are asynchronous (D-Bus). The worker runs
 * the engines over a mirror of the tree; when the engine needs children or attributes the mirror does not hold yet,
 * the worker posts a request on a MessagePort and blocks on Atomics.wait; the main thread fetches asynchronously
 * (it never blocks, so the UI and the providers keep being served), posts the answer and wakes the worker, which
 * pulls it with receiveMessageOnPort. The worker wakes every few milliseconds while it waits so a cancellation is
 * seen within 100 ms; if it does not stop in time, the service terminates it.
 */

/**
 * Index of the answer counter (the main thread adds one per answer posted) and of the "cancel" flag in the shared
 * Int32Array. Requests and answers carry a sequence number: an answer to a request the worker gave up on (cancelled)
 * is recognized and dropped.
 */
export const READY = 0;
export const CANCEL = 1;

/** One node's own fields (for NodeChange); regions of the tree travel as a RecordBlock. */
export interface NodeRecord {
  /** Handle of the node, stable for the worker's lifetime. */
  h: number;
  /** Handle of the node's parent (the document for top-level windows, even when listed under an application). */
  p: number;
  ns: Namespace;
  role: string;
  name: string;
  rid: string;
  id?: string;
}

export interface AttributeRecord {
  ns: Namespace;
  name: string;
  text: string;
}

export type BridgeRequest = { seq: number } & (
  | { op: 'children'; h: number }
  /**
   * A list the runtime reported changed, fetched again: the children in `known` (the mirror holds them and what is
   * below them) come without their descendants; the new ones come with their whole subtree, loaded by the runtime
   * first (up to a budget), so the mirror stays whole.
   */
  | { op: 'refresh'; h: number; known: number[] }
  | { op: 'attributes'; h: number }
  /** Only the attributes with this local name (any namespace). */
  | { op: 'named'; h: number; name: string }
);

export type BridgeResponse = { seq: number } &
  /** The children, each followed by the children the runtime already holds below it (sent ahead, one block). */
  (
    | { ok: true; children: RecordBlock }
    | { ok: true; attributes: AttributeRecord[] }
    | { ok: false; error: InspectorErrorData }
  );

/** A result that is not a node: an attribute (of the node with handle `h`) or a value. */
export type WorkerOtherItem =
  | { kind: 'attribute'; h: number; ns: Namespace; name: string; text: string }
  | { kind: 'value'; value: string | number | boolean; integer?: boolean };

/**
 * An evaluation's results in order, one entry of `items` each: a node's handle (>= 0), or `-1 - i` for `others[i]`.
 * Nodes, most results by far, travel as one typed array (one copy for the whole answer, no object per node).
 */
export interface WorkerResults {
  items: Int32Array;
  others: WorkerOtherItem[];
}

export interface EvaluateRequest {
  type: 'evaluate';
  id: number;
  xpath: string;
  context: number;
  /** Stop after this many results and answer `truncated: true` when there were more. */
  maxResults?: number;
  /** The runtime's tree generation the request is of (the mirror is brought to it by `root` or `changes`). */
  generation: number;
  /** Sent only when the worker's mirror must be built anew (no mirror yet, or a change the runtime did not detail). */
  root?: RecordBlock;
  /** With `root`: the runtime's applications are all children of the desktop (Runtime.applicationsOnlyAtTop). */
  applicationsOnlyAtTop?: boolean;
  /**
   * Sent instead of `root` when the mirror is of an older generation and the runtime reported every change since,
   * node by node: the worker updates those nodes (and fetches their lists again) and keeps the rest of its mirror.
   */
  changes?: { since: number; nodes: NodeChange[] };
}

/** A node whose data changed: its record as the runtime knows it now (no kids); `children` when its list changed. */
export interface NodeChange {
  record: NodeRecord;
  children: boolean;
}

export type WorkerMessage =
  | { type: 'ready' }
  /** indexed: the worker's mirror had its index by name (the whole tree, indexed after an earlier query). */
  /** bridgeNodes: node records the worker received for this query (with a new root, or through the bridge). */
  | {
      type: 'done';
      id: number;
      results: WorkerResults;
      engine: string;
      evalMs: number;
      bridgeCalls: number;
      bridgeNodes: number;
      indexed: boolean;
      /** There were more than `maxResults` results; the first `maxResults` are in `results`. */
      truncated?: boolean;
    }
  | { type: 'error'; id: number; error: InspectorErrorData };
