/** Which attributes locators may use, in which order, and which never (volatile ones). */
export interface LocatorConfig {
  /** Attribute keys tried first, in this order (`Id`, `Name`, then the others). */
  priority: readonly string[];
  /** Attribute keys (exact) or patterns never used: volatile values such as geometry, focus, runtime ids. */
  blacklist: readonly (string | RegExp)[];
  /** Use other attributes that are neither prioritised nor blacklisted (after the priority list). */
  useOtherAttributes: boolean;
  /** At most this many attribute predicates on one step. */
  maxPredicates: number;
  /** At most this many steps in one locator. */
  maxSteps: number;
  /** Alternatives returned per node. */
  maxResults: number;
  /** Candidates the refinement may count before it gives up. */
  budget: number;
  /**
   * Candidates the refinement may count after it found the first unique one, within `budget` (default: the rest of
   * it). A search for one best locator need not spend the whole budget on a second candidate to rank against it.
   */
  budgetAfterFirst?: number;
}

export const DEFAULT_PRIORITY: readonly string[] = [
  'Id',
  'Name',
  'native:Accessible.AccessibleId',
  'Description',
  'native:Accessible.Description',
  'native:Role',
  'native:Application.ToolkitName',
  'ProcessName',
  'ExecutablePath',
];

export const DEFAULT_BLACKLIST: readonly (string | RegExp)[] = [
  'RuntimeId',
  'Bounds',
  /^Bounds\./,
  'ActivationPoint',
  /^ActivationPoint\./,
  'ActivationArea',
  /^ActivationArea\./,
  /(^|:|\.)Extents?(\.|$)/,
  /Position|Size/,
  'IsFocused',
  'IsHovered',
  /Hover/,
  /Focus/,
  'IsSelected',
  'IsExpanded',
  'IsInView',
  'IsOffscreen',
  'IsVisible',
  'IsEnabled',
  'ToggleState',
  'IsMinimized',
  'IsMaximized',
  'IsTopmost',
  'IsActive',
  // Any other boolean state (IsReadOnly, IsSecure, IsModal, ...): true of many nodes, and it may flip.
  /(^|:|\.)Is[A-Z]/,
  /States?$/,
  'ProcessId',
  /Pid$/i,
  'StartTime',
  'CommandLine',
  'UserName',
  'Text',
  'Value',
  'SelectedText',
  'SelectionStart',
  'SelectionEnd',
  'SelectedItems',
  /Scroll/,
  /Count$/,
  /Caret/,
  /NSelected/,
  /NRows|NColumns/,
  // Lists of a table's header cells: list values are never used (isVolatileValue), and reading the rows' costs a
  // call per row.
  /(^|:|\.)(Row|Column)Headers$/,
  'SupportedPatterns',
  'Technology',
  // The role is the step's name test already; `[@Role='Panel']` on `Panel` adds nothing.
  'Role',
  'native:Accessible.Name',
  'native:Accessible.Attributes',
  'native:Action.Names',
  'native:ScriptedFailure',
  'Monitors',
  'OsVersion',
  'native:Application.Version',
];

export const DEFAULT_CONFIG: LocatorConfig = {
  priority: DEFAULT_PRIORITY,
  blacklist: DEFAULT_BLACKLIST,
  useOtherAttributes: true,
  maxPredicates: 2,
  maxSteps: 4,
  maxResults: 5,
  budget: 400,
};

export function resolveConfig(partial: Partial<LocatorConfig> = {}): LocatorConfig {
  return { ...DEFAULT_CONFIG, ...partial };
}

export function isBlacklisted(key: string, config: LocatorConfig): boolean {
  const local = key.includes(':') ? key.slice(key.indexOf(':') + 1) : key;
  return config.blacklist.some((entry) =>
    typeof entry === 'string' ? entry === key || entry === local : entry.test(key),
  );
}

/**
 * Values that change while the application runs: counters, clock times, dates, percentages, long hex or numeric
 * ids, generated GUIDs. A locator built on them breaks on the next run.
 */
export function isVolatileValue(value: string): boolean {
  const text = value.trim();
  if (text === '') return true;
  if (text.length > 120) return true;
  if (/^[-+]?\d+([.,]\d+)?\s*%?$/.test(text)) return true;
  if (/\b\d{1,2}:\d{2}(:\d{2})?\b/.test(text)) return true;
  if (/\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b/.test(text)) return true;
  if (/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i.test(text)) return true;
  if (/\b0x[0-9a-f]{4,}\b|\b[0-9a-f]{12,}\b/i.test(text)) return true;
  if (/\d{5,}/.test(text)) return true;
  if (/^[[{]/.test(text)) return true;
  return false;
}
