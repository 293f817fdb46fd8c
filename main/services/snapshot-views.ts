import type { Params, Result } from '../../shared/api/schema.js';
import { InspectorError, toInspectorError } from '../../shared/model/errors.js';
import { countTreeNodes, type TreeView } from './tree-view.js';

/** A view over an opened snapshot (read-only, offline); closing it stops what it started (its XPath worker). */
export interface OpenedSnapshot extends TreeView {
  close(): Promise<void>;
}

/** What opens a snapshot's text as a view of its own (the live host context). */
export interface SnapshotOpener<V extends OpenedSnapshot> {
  openSnapshot(xml: string, name: string): Promise<V>;
}

/**
 * The snapshot one connection looks at (`snapshot.open`, `snapshot.close`): at most one, opened next to the live
 * view; `show` tells the connection which view it looks at from now on (undefined: the live one again).
 */
export class SnapshotViews<V extends OpenedSnapshot> {
  private opened: V | undefined;
  private closed = false;
  /** Snapshots still shutting down (their XPath worker can take seconds to stop on a busy machine). */
  private readonly closing = new Set<Promise<void>>();

  constructor(
    private readonly opener: SnapshotOpener<V>,
    private readonly show: (view: V | undefined) => void,
  ) {}

  /** Opens the snapshot and shows it (closing the one before); answers with its name and its number of nodes. */
  async open({ xml, name }: Params<'snapshot.open'>): Promise<Result<'snapshot.open'>> {
    const opened = await this.opener.openSnapshot(xml, name);
    if (this.closed) {
      await opened.close();
      throw new InspectorError('cancelled', 'the connection closed');
    }
    this.close();
    this.opened = opened;
    this.show(opened);
    return { name, nodes: await countTreeNodes(opened) };
  }

  /** Back to the live view at once; the snapshot shuts down behind (closeAll waits for it). */
  close(): Result<'snapshot.close'> {
    const snapshot = this.opened;
    if (!snapshot) return { closed: false };
    this.opened = undefined;
    this.show(undefined);
    const closing: Promise<void> = snapshot
      .close()
      .catch((error: unknown) => {
        process.stderr.write(`platynui-inspector: closing a snapshot failed: ${toInspectorError(error).message}\n`);
      })
      .finally(() => this.closing.delete(closing));
    this.closing.add(closing);
    return { closed: true };
  }

  /** The connection closed: the snapshot and those still shutting down are closed; a snapshot still opening is too. */
  async closeAll(): Promise<void> {
    this.closed = true;
    const snapshot = this.opened;
    this.opened = undefined;
    await Promise.all([snapshot?.close(), ...this.closing]);
  }
}
