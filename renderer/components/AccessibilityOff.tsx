import { useSlice, useStores } from '../app-context.js';

/** Shown instead of the tree when the desktop's accessibility switch is off. */
export function AccessibilityOff({ onEnabled }: { onEnabled: () => void }) {
  const { hostState } = useStores();
  const enabling = useSlice(hostState, (s) => s.enabling);
  return (
    <main className="a11y-off" aria-labelledby="a11y-off-title">
      <h1 id="a11y-off-title">Accessibility is switched off</h1>
      <p>
        Applications only publish their accessibility tree when the desktop's accessibility switch
        (org.a11y.Status.IsEnabled) is on. Switch it on, then restart the applications you want to inspect if they do
        not appear.
      </p>
      <button
        type="button"
        disabled={enabling}
        onClick={() => void hostState.getState().enableAccessibility().then(onEnabled)}
      >
        {enabling ? 'Switching on…' : 'Switch accessibility on'}
      </button>
    </main>
  );
}
