import { useState } from 'react';
import type { SnapshotDiffResult } from '../../shared/api/schema.js';
import { useSlice, useStores } from '../app-context.js';
import { errorOf } from '../model/errors.js';
import { nodeLabel } from '../model/labels.js';
import { openSnapshotView } from '../stores/snapshot-view.js';
import { saveText } from './clipboard.js';

/** `Window "Sign in"` -> `window-sign-in.xml`. */
export function snapshotFileName(label: string): string {
  const stem = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `${stem || 'snapshot'}.xml`;
}

/** The top bar's snapshot actions: save the selected subtree as a snapshot file, compare two snapshot files. */
export function SnapshotTools() {
  const { client, tree, hostState } = useStores();
  const selected = useSlice(tree, (s) => (s.selectedId ? s.nodes.get(s.selectedId) : undefined));
  const [comparing, setComparing] = useState(false);
  const save = () => {
    const target =
      selected ?? (tree.getState().rootId ? tree.getState().nodes.get(tree.getState().rootId!) : undefined);
    if (!target) return;
    client.snapshot({ runtimeId: target.runtimeId }).then(
      ({ xml, nodes }) => {
        saveText(xml, snapshotFileName(nodeLabel(target)), 'application/xml');
        hostState.getState().say(`Saved ${nodes} nodes of ${nodeLabel(target)} as a snapshot`);
      },
      (error: unknown) => hostState.getState().say(`Snapshot failed: ${errorOf(error).message}`, 'error'),
    );
  };
  const stores = useStores();
  const open = (file: File | undefined) => {
    if (!file) return;
    file
      .text()
      .then((xml) => openSnapshotView(stores, xml, file.name))
      .then(
        (nodes) => hostState.getState().say(`Opened the snapshot ${file.name} (${nodes} nodes), offline and read-only`),
        (error: unknown) => hostState.getState().say(`Could not open ${file.name}: ${errorOf(error).message}`, 'error'),
      );
  };
  return (
    <>
      <label className="file-button" title="Look at a snapshot file instead of the live desktop (read-only)">
        Open snapshot
        <input
          type="file"
          className="visually-hidden"
          accept=".xml,application/xml"
          onChange={(e) => {
            open(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </label>
      <button type="button" onClick={save} title="Save the selected node's subtree as a snapshot file">
        Save snapshot
      </button>
      <button type="button" aria-expanded={comparing} onClick={() => setComparing(!comparing)}>
        Compare snapshots
      </button>
      {comparing ? <CompareDialog onClose={() => setComparing(false)} /> : null}
    </>
  );
}

type Outcome =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; diff: SnapshotDiffResult }
  | { state: 'failed'; message: string };

function summary(diff: SnapshotDiffResult): string {
  if (diff.same) return `The snapshots are the same (${diff.nodes.before} nodes)`;
  return `${diff.added} added, ${diff.removed} removed, ${diff.changed} changed (${diff.nodes.before} nodes before, ${diff.nodes.after} after)${diff.truncated ? '; the list is cut off' : ''}`;
}

function CompareDialog({ onClose }: { onClose: () => void }) {
  const { client } = useStores();
  const [before, setBefore] = useState<File | undefined>();
  const [after, setAfter] = useState<File | undefined>();
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const compare = async () => {
    if (!before || !after) return;
    setOutcome({ state: 'running' });
    try {
      const [a, b] = await Promise.all([before.text(), after.text()]);
      const diff = await client.diffSnapshots({ xml: a, name: before.name }, { xml: b, name: after.name });
      setOutcome({ state: 'done', diff });
    } catch (error) {
      setOutcome({ state: 'failed', message: errorOf(error).message });
    }
  };
  return (
    <div className="snapshot-compare" role="dialog" aria-label="Compare snapshots">
      <div className="toolbar-inline">
        <label>
          Before <input type="file" accept=".xml,application/xml" onChange={(e) => setBefore(e.target.files?.[0])} />
        </label>
        <label>
          After <input type="file" accept=".xml,application/xml" onChange={(e) => setAfter(e.target.files?.[0])} />
        </label>
        <button
          type="button"
          disabled={!before || !after || outcome.state === 'running'}
          onClick={() => void compare()}
        >
          Compare
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="compare-outcome" aria-live="polite">
        {outcome.state === 'running'
          ? 'Comparing…'
          : outcome.state === 'failed'
            ? outcome.message
            : outcome.state === 'done'
              ? summary(outcome.diff)
              : 'Choose two snapshot files'}
      </p>
      {outcome.state === 'done' && !outcome.diff.same ? (
        <ul className="snapshot-differences" aria-label="Differences">
          {outcome.diff.entries.map((entry, i) => (
            <li key={i} className={`difference ${entry.kind}`}>
              <span className="difference-kind">{entry.kind}</span>{' '}
              <span className="difference-path">{entry.path}</span>
              {entry.descendants > 0 ? <span className="muted"> (and {entry.descendants} below)</span> : null}
              <ul className="difference-attributes">
                {entry.attributes.map((attribute) => (
                  <li key={attribute.name}>
                    {attribute.name}:{' '}
                    {entry.kind === 'changed'
                      ? `${attribute.before ?? '(none)'} → ${attribute.after ?? '(none)'}`
                      : (attribute.after ?? attribute.before)}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
