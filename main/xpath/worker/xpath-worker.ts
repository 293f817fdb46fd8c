import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { toInspectorError } from '../../../shared/model/errors.js';
import { namespaceFromUri } from '../../../shared/model/namespaces.js';
import { evaluateOverTree, type XPathItem } from '../../../shared/xpath/evaluate.js';
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

const BATCH = 256;

parentPort!.on('message', (request: EvaluateRequest) => {
  const started = performance.now();
  try {
    if (!mirror || mirrorGeneration !== request.generation) {
      mirror = new MirrorTree(request.root, port, flags);
      mirrorGeneration = request.generation;
    }
    mirror.bridgeCalls = 0;
    const context = mirror.node(request.context) ?? mirror.root;
    let batch: WorkerItem[] = [];
    const outcome = evaluateOverTree(mirror, request.xpath, context, (item) => {
      batch.push(toWorkerItem(item));
      if (batch.length >= BATCH) {
        post({ type: 'items', id: request.id, items: batch });
        batch = [];
      }
    });
    if (batch.length > 0) post({ type: 'items', id: request.id, items: batch });
    post({
      type: 'done',
      id: request.id,
      engine: outcome.engine,
      evalMs: performance.now() - started,
      bridgeCalls: mirror.bridgeCalls,
    });
  } catch (error) {
    post({ type: 'error', id: request.id, error: toInspectorError(error).toData() });
  }
});
