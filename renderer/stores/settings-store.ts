/**
 * Settings that survive a reload: panel sizes, theme, follow-focus, live evaluation, the XPath history. Stored as
 * one JSON object under one key of a Storage (localStorage in the page, an in-memory one in tests).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';

export type ThemeSetting = 'system' | 'light' | 'dark';

export interface Settings {
  /** Widths and heights of resizable panels, in pixels, by panel id. */
  panels: { [panel: string]: number };
  theme: ThemeSetting;
  followFocus: boolean;
  liveEvaluate: boolean;
  xpathHistory: string[];
  lastExpression: string;
  /** Compute locators for every selected node (off: on demand). */
  autoLocators: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  panels: { tree: 440, details: 420, console: 300 },
  theme: 'system',
  followFocus: false,
  liveEvaluate: true,
  xpathHistory: [],
  lastExpression: '',
  autoLocators: false,
};

export interface SettingsActions {
  update(patch: Partial<Settings>): void;
  setPanel(panel: string, size: number): void;
}

export type SettingsStore = StoreApi<Settings & SettingsActions>;

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const SETTINGS_KEY = 'platynui-inspector.settings.v1';

export function loadSettings(storage: KeyValueStorage | undefined): Settings {
  try {
    const raw = storage?.getItem(SETTINGS_KEY);
    if (!raw) return structuredClone(DEFAULT_SETTINGS);
    const parsed = JSON.parse(raw) as Partial<Settings>;
    return {
      ...structuredClone(DEFAULT_SETTINGS),
      ...parsed,
      panels: { ...DEFAULT_SETTINGS.panels, ...(parsed.panels ?? {}) },
      xpathHistory: Array.isArray(parsed.xpathHistory) ? parsed.xpathHistory.filter((h) => typeof h === 'string') : [],
    };
  } catch {
    return structuredClone(DEFAULT_SETTINGS);
  }
}

export function createSettingsStore(storage: KeyValueStorage | undefined): SettingsStore {
  return createStore<Settings & SettingsActions>()((set, get) => {
    const save = () => {
      const { update: _u, setPanel: _s, ...settings } = get();
      try {
        storage?.setItem(SETTINGS_KEY, JSON.stringify(settings));
      } catch {
        // storage full or unavailable: settings stay for this session
      }
    };
    return {
      ...loadSettings(storage),
      update(patch) {
        set(patch);
        save();
      },
      setPanel(panel, size) {
        set({ panels: { ...get().panels, [panel]: Math.round(size) } });
        save();
      },
    };
  });
}
