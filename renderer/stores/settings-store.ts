/**
 * The UI's settings (panel sizes, theme, follow focus, live evaluation, the XPath history ...), kept in one place:
 * the host's settings (`settings.get` / `settings.set`, one `ui.<name>` key each), so they survive a restart of the
 * host on another port and are shared by the browser host and the Electron shell. A Storage (localStorage in the
 * page) is only a cache that lets the first paint use the last known values before the host answered.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InspectorClient } from '../../shared/api/client.js';
import type { Settings as HostSettings } from '../../shared/api/schema.js';

export type ThemeSetting = 'system' | 'light' | 'dark';

export interface UiSettings {
  /** Widths and heights of resizable panels, in pixels, by panel id. */
  panels: { [panel: string]: number };
  theme: ThemeSetting;
  followFocus: boolean;
  liveEvaluate: boolean;
  xpathHistory: string[];
  lastExpression: string;
  /** Compute locators for every selected node (off: on demand). */
  autoLocators: boolean;
  /** Outline the selected tree row's element on screen. */
  highlightSelection: boolean;
  /** Leave the aliases derived from structured values (Bounds.X ...) out of the attributes table. */
  hideDerived: boolean;
}

export const DEFAULT_SETTINGS: UiSettings = {
  panels: { tree: 440, details: 420, console: 300 },
  theme: 'system',
  followFocus: false,
  liveEvaluate: true,
  xpathHistory: [],
  lastExpression: '',
  autoLocators: false,
  highlightSelection: true,
  hideDerived: true,
};

const NAMES = Object.keys(DEFAULT_SETTINGS) as Array<keyof UiSettings>;
/** Prefix of the UI's keys in the host's settings. */
export const HOST_KEY_PREFIX = 'ui.';
export const HISTORY_LIMIT = 50;

export interface SettingsState extends UiSettings {
  /** Where the values come from: the defaults, the cache, or the host (once `load` answered). */
  source: 'defaults' | 'cache' | 'host';
  /** The last failure to read or save the host's settings (shown in the status bar), undefined when fine. */
  hostError: string | undefined;
}

export interface SettingsActions {
  update(patch: Partial<UiSettings>): void;
  setPanel(panel: string, size: number): void;
  /** Reads the host's settings (they win over the cache); later changes are saved there. */
  load(host: SettingsHost): Promise<void>;
  /** Saves pending changes now instead of after the delay. */
  flush(): Promise<void>;
}

export type SettingsStore = StoreApi<SettingsState & SettingsActions>;
export type SettingsHost = Pick<InspectorClient, 'getSettings' | 'setSettings'>;

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const CACHE_KEY = 'platynui-inspector.settings.v1';

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((entry) => typeof entry === 'string');

/** The valid values among `values` (keys without the host prefix); anything of the wrong shape is left out. */
export function readUiSettings(values: { [name: string]: unknown }): Partial<UiSettings> {
  const out: Partial<UiSettings> = {};
  const { panels, theme, followFocus, liveEvaluate, xpathHistory, lastExpression } = values;
  if (panels && typeof panels === 'object' && !Array.isArray(panels)) {
    const sizes: { [panel: string]: number } = {};
    for (const [panel, size] of Object.entries(panels)) {
      if (typeof size === 'number' && Number.isFinite(size) && size > 0) sizes[panel] = size;
    }
    out.panels = { ...DEFAULT_SETTINGS.panels, ...sizes };
  }
  if (theme === 'system' || theme === 'light' || theme === 'dark') out.theme = theme;
  if (typeof followFocus === 'boolean') out.followFocus = followFocus;
  if (typeof liveEvaluate === 'boolean') out.liveEvaluate = liveEvaluate;
  for (const flag of ['autoLocators', 'highlightSelection', 'hideDerived'] as const) {
    const value = values[flag];
    if (typeof value === 'boolean') out[flag] = value;
  }
  if (isStringArray(xpathHistory)) out.xpathHistory = xpathHistory.slice(0, HISTORY_LIMIT);
  if (typeof lastExpression === 'string') out.lastExpression = lastExpression;
  return out;
}

function fromHost(settings: HostSettings): Partial<UiSettings> {
  const values: { [name: string]: unknown } = {};
  for (const [key, value] of Object.entries(settings)) {
    if (key.startsWith(HOST_KEY_PREFIX)) values[key.slice(HOST_KEY_PREFIX.length)] = value;
  }
  return readUiSettings(values);
}

function readCache(cache: KeyValueStorage | undefined): Partial<UiSettings> | undefined {
  try {
    const raw = cache?.getItem(CACHE_KEY);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as unknown;
    return parsed && typeof parsed === 'object' ? readUiSettings(parsed as { [name: string]: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

function pick(state: UiSettings): UiSettings {
  const out = {} as { [K in keyof UiSettings]: UiSettings[K] };
  for (const name of NAMES) (out as { [name: string]: unknown })[name] = state[name];
  return out;
}

export function createSettingsStore(
  options: { cache?: KeyValueStorage | undefined; saveDelayMs?: number } = {},
): SettingsStore {
  const { cache } = options;
  const saveDelayMs = options.saveDelayMs ?? 250;
  const cached = readCache(cache);
  let host: SettingsHost | undefined;
  const dirty = new Set<keyof UiSettings>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let saving: Promise<void> = Promise.resolve();

  return createStore<SettingsState & SettingsActions>()((set, get) => {
    const writeCache = () => {
      try {
        cache?.setItem(CACHE_KEY, JSON.stringify(pick(get())));
      } catch {
        // the cache is full or unavailable: the host still has the settings
      }
    };

    const save = async (): Promise<void> => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (!host || dirty.size === 0) return;
      const target = host;
      const values: HostSettings = {};
      const state = get();
      for (const name of dirty) values[`${HOST_KEY_PREFIX}${name}`] = structuredClone(state[name]);
      dirty.clear();
      saving = saving.then(async () => {
        try {
          await target.setSettings(values);
          if (get().hostError) set({ hostError: undefined });
        } catch (error) {
          set({ hostError: `Settings could not be saved: ${error instanceof Error ? error.message : String(error)}` });
        }
      });
      await saving;
    };

    const changed = (patch: Partial<UiSettings>) => {
      set(patch);
      for (const name of Object.keys(patch) as Array<keyof UiSettings>) if (NAMES.includes(name)) dirty.add(name);
      writeCache();
      if (!host) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void save(), saveDelayMs);
    };

    return {
      ...structuredClone(DEFAULT_SETTINGS),
      ...(cached ?? {}),
      source: cached ? 'cache' : 'defaults',
      hostError: undefined,

      update(patch) {
        changed(patch);
      },

      setPanel(panel, size) {
        changed({ panels: { ...get().panels, [panel]: Math.round(size) } });
      },

      async load(target) {
        try {
          const { settings } = await target.getSettings();
          const known = fromHost(settings);
          // What the user changed before the host answered wins over what the host had.
          for (const name of dirty) delete known[name];
          set({ ...known, source: 'host', hostError: undefined });
          writeCache();
        } catch (error) {
          set({ hostError: `Settings could not be read: ${error instanceof Error ? error.message : String(error)}` });
        }
        host = target;
        await save();
      },

      flush: save,
    };
  });
}
