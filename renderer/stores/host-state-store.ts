/**
 * The host as the page knows it (what the status bar and the top bar show): the connection, what the host is (its
 * desktop, providers, accessibility switch and capabilities, all from the protocol's `desktop` and `status`), pick
 * mode and the last message. Pick results go to `onReveal`, which selects them in the tree.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InspectorClient } from '../../shared/api/client.js';
import type { Capabilities, InspectorEvent, NodeSummary, Result } from '../../shared/api/schema.js';
import type { Rect } from '../../shared/model/values.js';
import { errorOf } from '../model/errors.js';

export interface HostInfo {
  desktop: NodeSummary;
  /** The monitors' rectangles (the desktop's bounds when it reports none): what is on screen. */
  screens: Rect[];
  status: Result<'status'>;
}

/** How long a status message stays, by level. */
export const MESSAGE_MS = { info: 6000, error: 15000 } as const;

export interface HostState {
  info: HostInfo | undefined;
  connection: 'connecting' | 'open' | 'closed';
  error: string | undefined;
  message: { text: string; level: 'info' | 'error' } | undefined;
  picking: boolean;
  /** In pick mode: a click in the application selects (the host captured the pointer). */
  pickByClick: boolean;
  /** The node under the pointer in pick mode, its depth in the stack at the point and the stack's size. */
  pickNode: NodeSummary | undefined;
  pickDepth: number;
  pickStackSize: number;
  enabling: boolean;
  /** Applications showing this inspector (marked in the tree). */
  ownApplications: ReadonlySet<string>;
}

export interface HostStateActions {
  connect(): Promise<HostInfo | undefined>;
  enableAccessibility(): Promise<void>;
  startPick(): Promise<void>;
  cyclePick(delta: number): Promise<void>;
  /** Ends pick mode; with accept, resolves to the picked node (which the caller reveals). */
  stopPick(accept: boolean): Promise<NodeSummary | undefined>;
  say(text: string, level?: 'info' | 'error'): void;
  setConnection(state: HostState['connection']): void;
  handleEvent(event: InspectorEvent): void;
}

export type HostStateStore = StoreApi<HostState & HostStateActions>;

export interface HostStateCallbacks {
  /** A node was picked: reveal and select it. */
  onReveal(node: NodeSummary): void;
}

const NO_CAPABILITIES: Capabilities = {
  pick: false,
  highlight: false,
  followFocus: false,
  locators: false,
  stop: false,
  screen: false,
  interact: false,
  record: false,
};

/** The host's capabilities; none until the host answered. */
export const selectCapabilities = (state: HostState): Capabilities =>
  state.info?.status.capabilities ?? NO_CAPABILITIES;

/** False only when the host reports the accessibility switch off. */
export const selectAccessibilityOn = (state: HostState): boolean => state.info?.status.accessibility.enabled ?? true;

export function createHostStateStore(
  client: InspectorClient,
  callbacks: HostStateCallbacks,
  messageMs: { info: number; error: number } = MESSAGE_MS,
): HostStateStore {
  let messageTimer: ReturnType<typeof setTimeout> | undefined;
  const readInfo = async (): Promise<HostInfo> => {
    const [desktop, status] = await Promise.all([client.desktop(), client.status()]);
    const screens = desktop.monitors.length ? desktop.monitors.map((monitor) => monitor.bounds) : [desktop.bounds];
    return { desktop: desktop.node, screens, status };
  };

  return createStore<HostState & HostStateActions>()((set, get) => ({
    info: undefined,
    connection: 'connecting',
    error: undefined,
    message: undefined,
    picking: false,
    pickByClick: false,
    pickNode: undefined,
    pickDepth: 0,
    pickStackSize: 0,
    enabling: false,
    ownApplications: new Set(),

    async connect() {
      try {
        const info = await readInfo();
        set({ info, connection: 'open', error: undefined });
        return info;
      } catch (error) {
        set({ connection: 'closed', error: errorOf(error).message });
        return undefined;
      }
    },

    async enableAccessibility() {
      set({ enabling: true });
      try {
        await client.enableAccessibility();
        const info = await readInfo();
        set({ info, enabling: false });
        get().say(info.status.accessibility.enabled ? 'Accessibility switched on' : 'Accessibility is still off');
      } catch (error) {
        set({ enabling: false });
        get().say(`Could not switch accessibility on: ${errorOf(error).message}`, 'error');
      }
    },

    async startPick() {
      try {
        const started = await client.startPick();
        set({ picking: true, pickByClick: started.clickSelects, pickNode: undefined, pickDepth: 0, pickStackSize: 0 });
        get().say(
          started.clickSelects
            ? 'Pick: point at an element; a click (it does not reach the application), Enter or F8 selects, the ' +
                'wheel or ↑/↓ cycles, Escape or a right click cancels'
            : `Pick: point at an element; Enter or F8 selects, ↑/↓ cycles, Escape cancels (clicks are not ` +
                `captured: ${started.clickNote ?? 'unsupported'})`,
        );
      } catch (error) {
        get().say(`Pick mode is not available: ${errorOf(error).message}`, 'error');
      }
    },

    async cyclePick(delta) {
      if (!get().picking) return;
      await client.cyclePick(delta).catch(() => undefined);
    },

    async stopPick(accept) {
      if (!get().picking) return undefined;
      set({ picking: false });
      try {
        let picked: NodeSummary | undefined;
        if (accept) picked = (await client.selectPick()).node ?? get().pickNode;
        else await client.stopPick();
        get().say(picked ? 'Picked' : 'Pick cancelled');
        return picked;
      } catch (error) {
        get().say(`Pick failed: ${errorOf(error).message}`, 'error');
        return undefined;
      }
    },

    say(text, level = 'info') {
      const message = { text, level };
      set({ message });
      // A message clears itself after a while (unless another one replaced it).
      if (messageTimer) clearTimeout(messageTimer);
      messageTimer = setTimeout(() => {
        if (get().message === message) set({ message: undefined });
      }, messageMs[level]);
      // Node (the unit tests) does not wait for it.
      (messageTimer as unknown as { unref?: () => void }).unref?.();
    },

    setConnection(connection) {
      set({ connection });
    },

    handleEvent(event) {
      switch (event.type) {
        case 'pick.hover':
          set({ pickNode: event.node ?? undefined, pickDepth: event.depth, pickStackSize: event.stackSize });
          break;
        case 'pick.selected':
          if (get().picking) get().say('Picked');
          set({ picking: false });
          callbacks.onReveal(event.node);
          break;
        case 'pick.stopped':
          if (get().picking) get().say('Pick cancelled');
          set({ picking: false });
          break;
        case 'provider.status': {
          const info = get().info;
          if (info) set({ info: { ...info, status: { ...info.status, providers: event.providers } } });
          get().say(
            event.providers.map((p) => `${p.displayName}: ${p.state}${p.message ? ` (${p.message})` : ''}`).join(', '),
            event.providers.some((p) => p.state !== 'ready') ? 'error' : 'info',
          );
          break;
        }
        default:
          break;
      }
    },
  }));
}
