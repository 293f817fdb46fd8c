import { useSlice, useStores } from '../app-context.js';
import { errorOf } from '../model/errors.js';
import { closeSnapshotView } from '../stores/snapshot-view.js';

/** While a snapshot is open: says the tree is offline and read-only, and leads back to the live desktop. */
export function SnapshotBanner() {
  const stores = useStores();
  const name = useSlice(stores.hostState, (s) => s.info?.status.snapshot?.name);
  if (!name) return null;
  const back = () =>
    void closeSnapshotView(stores).catch((error: unknown) =>
      stores.hostState.getState().say(`Could not go back: ${errorOf(error).message}`, 'error'),
    );
  return (
    <div className="snapshot-banner" role="region" aria-label="Offline snapshot">
      <strong>Offline</strong>
      <span>
        Showing the snapshot {name}, read-only: nothing here is the live desktop, actions and picking are off.
      </span>
      <button type="button" onClick={back}>
        Back to the live desktop
      </button>
    </div>
  );
}
