import { useEffect, useState } from 'react';
import { useSlice, useStores } from '../app-context.js';
import { errorOf } from '../model/errors.js';
import { normalizedFilter, searchWholeTree } from '../stores/tree-filter.js';

type Search =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; found: number; more: boolean }
  | { state: 'failed'; message: string };

/** Under the filter box: how many rows match, "no match", and the action that searches the whole tree. */
export function TreeFilterStatus() {
  const { tree, client } = useStores();
  const filter = useSlice(tree, (s) => s.filter);
  const rows = useSlice(tree, (s) => s.rows.length);
  const [search, setSearch] = useState<Search>({ state: 'idle' });
  useEffect(() => setSearch({ state: 'idle' }), [filter]);
  if (!normalizedFilter(filter)) return null;

  const run = () => {
    setSearch({ state: 'running' });
    searchWholeTree(client, tree, filter).then(
      (result) => {
        if (tree.getState().filter === filter) setSearch({ state: 'done', ...result });
      },
      (error: unknown) => setSearch({ state: 'failed', message: errorOf(error).message }),
    );
  };
  const line =
    search.state === 'running'
      ? 'Searching the whole tree…'
      : search.state === 'failed'
        ? `The search failed: ${search.message}`
        : search.state === 'done'
          ? search.found === 0
            ? `No node in the whole tree matches "${filter.trim()}"`
            : `${search.found}${search.more ? '+' : ''} matches in the whole tree, shown under their parents`
          : rows === 0
            ? `No loaded node matches "${filter.trim()}"`
            : `Matches among the loaded nodes`;
  return (
    <div className="tree-filter-status">
      <span aria-live="polite">{line}</span>
      {search.state === 'idle' || search.state === 'failed' ? (
        <button type="button" onClick={run}>
          Search the whole tree
        </button>
      ) : null}
    </div>
  );
}
