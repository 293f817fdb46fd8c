import { createRequire } from 'node:module';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { InspectorError, toInspectorError } from '../../../shared/model/errors.js';
import { namespaceFromUri } from '../../../shared/model/namespaces.js';
import { evaluateOverTreeWith, type Fontoxpath, type XPathItem } from '../../../shared/xpath/evaluate-core.js';
import type { EvaluateRequest, WorkerItem, WorkerMessage } from '../protocol.js';
import { MirrorTree, type MirrorNode } from './mirror-tree.js';

interface WorkerData {
  port: MessagePort;
  control: SharedArrayBuffer;
}

const { port, control } = workerData as WorkerData;
const flags = new Int32Array(control);
let mirror: MirrorTree | undefined;
let mirrorGeneration = -1;

/**
 * fontoxpath (about 120 ms to load) is loaded on the first query the fast path declines, not when the worker starts:
 * most queries never need it. Synchronously, since an evaluation runs in one go on this thread.
 */
let fontoxpath: Fontoxpath | undefined;
function loadFontoxpath(): Fontoxpath {
  fontoxpath ??= createRequire(import.meta.url)('fontoxpath') as Fontoxpath;
  return fontoxpath;
}

function post(message: WorkerMessage): void {
  parentPort!.postMessage(message);
}

function toWorkerItem(item: XPathItem<MirrorNode>): WorkerItem {
  switch (item.kind) {
    case 'node':
      return { kind: 'node', h: item.node.h };
    case 'attribute': {
      const ns = namespaceFromUri(item.namespaceUri) ?? 'control';
      return { kind: 'attribute', h: item.owner.h, ns, name: item.localName, text: item.value };
    }
    case 'value':
      return item.integer === undefined
        ? { kind: 'value', value: item.value }
        : { kind: 'value', value: item.value, integer: item.integer };
  }
}

/** The first results go out in a small batch; then batches grow, so 100,000 results are few messages. */
const BATCH = 256;
const MAX_BATCH = 16_384;

/** A batch of nodes only travels as their handles in one typed array (copied in one go, not item by item). */
function postBatch(id: number, batch: WorkerItem[]): void {
  if (!batch.every((item) => item.kind === 'node')) {
    post({ type: 'items', id, items: batch });
    return;
  }
  const handles = new Int32Array(batch.length);
  for (let i = 0; i < batch.length; i++) handles[i] = (batch[i] as { h: number }).h;
  post({ type: 'nodes', id, handles });
}

/** Thrown from the result callback once the result cap is passed: the evaluation stops there. */
class ResultCapReached extends Error {}

post({ type: 'ready' });

parentPort!.on('message', (request: EvaluateRequest) => {
  const started = performance.now();
  try {
    if (mirror) {
      mirror.bridgeCalls = 0;
      mirror.bridgeNodes = 0;
    }
    if (request.root) {
      mirror = new MirrorTree(request.root, port, flags, request.applicationsOnlyAtTop === true);
      mirrorGeneration = request.generation;
    } else if (request.changes && mirror && mirrorGeneration === request.changes.since) {
      // The runtime told what changed since the mirror's generation: only those nodes are updated (see refresh()).
      mirror.applyChanges(request.changes.nodes);
      mirrorGeneration = request.generation;
    }
    if (!mirror || mirrorGeneration !== request.generation) throw new Error('the XPath worker has no current tree');
    mirror.cancelRaised = false;
    mirror.refresh();
    const context = mirror.node(request.context) ?? mirror.root;
    const indexed = mirror.indexed;
    let batch: WorkerItem[] = [];
    let batchSize = BATCH;
    let results = 0;
    let truncated = false;
    const cap = request.maxResults ?? Infinity;
    const tree = mirror;
    let engine = 'fast';
    try {
      engine = evaluateOverTreeWith(
        loadFontoxpath,
        tree,
        request.xpath,
        context,
        (item) => {
          if (++results > cap) throw new ResultCapReached();
          batch.push(toWorkerItem(item));
          if (batch.length >= batchSize) {
            postBatch(request.id, batch);
            batch = [];
            batchSize = Math.min(batchSize * 2, MAX_BATCH);
          }
        },
        (chosen) => {
          engine = chosen;
        },
      ).engine;
    } catch (error) {
      if (!(error instanceof ResultCapReached)) throw error;
      truncated = true;
    }
    if (batch.length > 0) postBatch(request.id, batch);
    post({
      type: 'done',
      id: request.id,
      engine,
      truncated,
      evalMs: performance.now() - started,
      bridgeCalls: mirror.bridgeCalls,
      bridgeNodes: mirror.bridgeNodes,
      indexed,
    });
  } catch (error) {
    const failure = mirror?.cancelRaised
      ? new InspectorError('cancelled', 'the evaluation was cancelled')
      : toInspectorError(error);
    post({ type: 'error', id: request.id, error: failure.toData() });
  }
  // Once a query has brought the whole tree into the mirror, index it by name (once per mirror), after the answer
  // went out and before the next query is read: the next queries (the console re-evaluating as the user types)
  // look names up instead of walking, and no query waits for the index but one arriving during this build.
  mirror?.buildIndex();
});
