import { useEffect, useState } from 'react';
import { useSlice, useStores } from '../app-context.js';
import { selectCapabilities } from '../stores/host-state-store.js';
import { copyText } from './clipboard.js';

/** Locators are computed this long after the selection came to rest (with "follow the selection"). */
const AUTO_LOCATE_DELAY_MS = 600;

/**
 * Locators follow the selection: a fresh view of the same node keeps them, another node clears them, and with
 * "follow the selection" they are computed once it has rested (they verify candidates against the whole tree, which
 * can take long on big trees). Mounted once, where the selected element is shown.
 */
function useLocatorsFollowSelection(): void {
  const { details, locators, hostState, settings } = useStores();
  const nodeId = useSlice(details, (s) => s.node?.runtimeId);
  const available = useSlice(hostState, (s) => selectCapabilities(s).locators);
  const auto = useSlice(settings, (s) => s.autoLocators);
  useEffect(() => {
    if (locators.getState().runtimeId !== nodeId) locators.getState().clear();
    if (!nodeId || !available || !auto) return;
    const timer = setTimeout(() => void locators.getState().find(nodeId), AUTO_LOCATE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [nodeId, available, auto, locators]);
}

/** Whole seconds since `busy` became true (0 while idle): the progress of a search the host reports no steps of. */
export function useBusySeconds(busy: boolean): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    setSeconds(0);
    if (!busy) return;
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 500);
    return () => clearInterval(timer);
  }, [busy]);
  return seconds;
}

/** "Finding locators…" with an indeterminate progress bar and the time it has taken so far. */
export function LocatorProgress({ busy }: { busy: boolean }) {
  const seconds = useBusySeconds(busy);
  if (!busy) return null;
  return (
    <span className="locator-progress" aria-live="polite">
      <progress aria-label="Finding locators" />
      Finding locators…{seconds > 0 ? ` ${seconds} s` : ''}
    </span>
  );
}

export function useCopy(): (text: string, what: string) => void {
  const { hostState } = useStores();
  return (text, what) =>
    void copyText(text).then(
      () => hostState.getState().say(`Copied ${what}`),
      (e: unknown) => hostState.getState().say(`Copy failed: ${String(e)}`, 'error'),
    );
}

/** The best locator of the selected element next to its title, with Copy; or a button that finds it. */
export function BestLocator() {
  useLocatorsFollowSelection();
  const { details, locators: store, hostState } = useStores();
  const nodeId = useSlice(details, (s) => s.node?.runtimeId);
  const connected = useSlice(hostState, (s) => s.info !== undefined);
  const available = useSlice(hostState, (s) => selectCapabilities(s).locators);
  const best = useSlice(store, (s) => (s.runtimeId === nodeId ? s.locators[0] : undefined));
  const busy = useSlice(store, (s) => s.busy);
  const error = useSlice(store, (s) => (s.runtimeId === nodeId ? s.error : undefined));
  const copy = useCopy();
  if (!nodeId || !connected || !available) return null;
  return (
    <div className="best-locator" role="group" aria-label="Best locator">
      {best ? (
        <>
          <code className="best-locator-xpath" title={best.reason}>
            {best.xpath}
          </code>
          <button
            type="button"
            aria-label={`Copy best locator ${best.xpath}`}
            onClick={() => copy(best.xpath, 'locator')}
          >
            Copy
          </button>
        </>
      ) : busy ? (
        <LocatorProgress busy={busy} />
      ) : (
        <>
          {error ? <span className="muted">{error}</span> : null}
          <button type="button" onClick={() => void store.getState().find(nodeId)}>
            Find locator
          </button>
        </>
      )}
    </div>
  );
}
