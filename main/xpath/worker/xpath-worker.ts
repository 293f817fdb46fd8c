import { createRequire } from 'node:module';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { InspectorError, toInspectorError } from '../../../shared/model/errors.js';
import { evaluateIntoSink, type Fontoxpath } from '../../../shared/xpath/evaluate-core.js';
import type { EvaluateRequest, WorkerMessage } from '../protocol.js';
import { MirrorTree } from './mirror-tree.js';
import { ResultWriter } from './result-writer.js';

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

function post(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(message, transfer);
}

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
    const results = new ResultWriter(request.maxResults);
    const engine = evaluateIntoSink(loadFontoxpath, mirror, request.xpath, context, results);
    const { items, others } = results.finish();
    post(
      {
        type: 'done',
        id: request.id,
        results: { items, others },
        engine,
        truncated: results.truncated,
        evalMs: performance.now() - started,
        bridgeCalls: mirror.bridgeCalls,
        bridgeNodes: mirror.bridgeNodes,
        indexed,
      },
      [items.buffer as ArrayBuffer],
    );
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
