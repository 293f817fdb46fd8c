import { useSlice, useStores } from '../app-context.js';
import { selectCapabilities } from '../stores/host-state-store.js';
import { ChecksPanel } from './ChecksPanel.js';
import { ExportPanel } from './ExportPanel.js';
import { PatternsPanel } from './PatternsPanel.js';
import { ScreenPanel } from './ScreenPanel.js';
import { Tabs, type TabSpec } from './Tabs.js';

/** The selected element's tools, most used first: stacked under "Details" in a wide window, tabs of their own below. */
const ELEMENT_VIEWS: readonly TabSpec[] = [
  { id: 'export', title: 'Export', render: () => <ExportPanel /> },
  { id: 'patterns', title: 'Patterns', render: () => <PatternsPanel /> },
  { id: 'checks', title: 'Checks', render: () => <ChecksPanel /> },
];

const DETAILS: TabSpec = {
  id: 'details',
  title: 'Details',
  render: () => ELEMENT_VIEWS.map((view) => <div key={view.id}>{view.render()}</div>),
};

/** The live desktop, captured only while its tab is shown. */
const SCREEN: TabSpec = { id: 'screen', title: 'Screen', render: () => <ScreenPanel />, keepMounted: false };

/**
 * The right-hand side pane as tabs: "Details" (export, patterns, checks) and the live "Screen" where the host can
 * capture it; in a narrow window (`narrow`) export, patterns and checks are tabs each. A new view is one more entry.
 */
export function SidePane({ narrow = false }: { narrow?: boolean }) {
  const { hostState } = useStores();
  const canScreen = useSlice(hostState, (s) => selectCapabilities(s).screen);
  const tabs = [...(narrow ? ELEMENT_VIEWS : [DETAILS]), ...(canScreen ? [SCREEN] : [])];
  return (
    <div className="side-pane">
      <Tabs label="Side pane" tabs={tabs} />
    </div>
  );
}
