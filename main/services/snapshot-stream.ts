import type { SnapshotStreamWriter } from '../../shared/snapshot/xml-writer.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import {
  NODES_READ_AT_ONCE,
  readForSnapshot,
  type NodeRead,
  type SnapshotEntry,
  type SubtreeOptions,
} from './snapshot.js';

/** How a streamed snapshot keeps pace with its output and learns that it must stop. */
export interface StreamPace {
  /** Resolves once the output took what was written so far; undefined when it has. */
  backpressure(): Promise<void> | undefined;
  /** Throws when the snapshot must stop (a timeout); checked before each node is written. */
  checkCancelled(): void;
}

/** A node of the subtree in document order: read once it is within the window, forgotten once written. */
interface Pending {
  readonly node: RuntimeNode;
  readonly depth: number;
  read: NodeRead | Promise<NodeRead> | undefined;
  next: Pending | undefined;
}

/**
 * Writes a node's subtree as the tree owns it (collectSubtree's shape) to `writer` while it is read: nodes are read
 * in document order, at most `readAhead` ahead of the one written next, and nothing of a node is kept once
 * it is written (its values are read for this snapshot only: RuntimeNode.releaseReadValues). Memory stays flat
 * whatever the tree's size. Does not end the writer (one document may hold several subtrees). Returns the number of
 * nodes written.
 */
export async function streamSubtree(
  runtime: Runtime,
  root: RuntimeNode,
  options: SubtreeOptions,
  writer: SnapshotStreamWriter<SnapshotEntry>,
  pace: StreamPace,
  readAhead = NODES_READ_AT_ONCE,
): Promise<number> {
  let reading = 0;
  const start = (pending: Pending): void => {
    const atLimit = options.maxDepth !== undefined && pending.depth >= options.maxDepth;
    const read = readForSnapshot(runtime, pending.node, options, atLimit, true);
    reading++;
    if (read instanceof Promise) {
      pending.read = read.then((done) => {
        follow(pending, done);
        return done;
      });
      // A failure ahead of the cursor is reported when the cursor reaches it, not as an unhandled rejection.
      pending.read.catch(() => {});
    } else {
      pending.read = read;
      follow(pending, read);
    }
  };
  // A node's children go right after it: everything below a node comes before its next sibling.
  const follow = (pending: Pending, read: NodeRead): void => {
    let after = pending.next;
    for (let i = read.children.length - 1; i >= 0; i--) {
      after = { node: read.children[i]!, depth: pending.depth + 1, read: undefined, next: after };
    }
    pending.next = after;
  };
  let cursor: Pending | undefined = { node: root, depth: 0, read: undefined, next: undefined };
  /** Starts reads from the cursor on, in document order, while fewer than the window are read and not written. */
  const fill = (): void => {
    for (let pending = cursor; pending && reading < readAhead; pending = pending.next) {
      if (pending.read === undefined) start(pending);
    }
  };
  let open = 0;
  let written = 0;
  while (cursor) {
    // The cursor's node is always read, even with the window full (of nodes after it): the walk always advances.
    if (cursor.read === undefined) start(cursor);
    fill();
    const read: NodeRead = cursor.read instanceof Promise ? await cursor.read : cursor.read!;
    pace.checkCancelled();
    for (; open > cursor.depth; open--) writer.close();
    writer.open(read.entry);
    open++;
    written++;
    reading--;
    cursor = cursor.next;
    const wait = pace.backpressure();
    if (wait) await wait;
  }
  for (; open > 0; open--) writer.close();
  return written;
}
