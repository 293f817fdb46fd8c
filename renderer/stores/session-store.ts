/**
 * The session as the status bar and the top bar show it: connection, providers, accessibility switch, pick mode,
 * follow focus, the last message. Pick mode and follow focus talk to the host; their results select in the tree.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { HostEvent, InspectorApi, NodeView, SessionInfo } from '../api/types.js';
import { asApiError } from '../api/types.js';

export interface SessionState {
  info: SessionInfo | undefined;
  connection: 'connecting' | 'open' | 'closed';
  error: string | undefined;
  message: { text: string; level: 'info' | 'error' } | undefined;
  picking: boolean;
  /** In pick mode: a click in the application selects (the host captured the pointer). */
  pickByClick: boolean;
  /** The node under the pointer in pick mode, its depth in the stack at the point and the stack's size. */
  pickNode: NodeView | undefined;
  pickDepth: number;
  pickStackSize: number;
  followFocus: boolean;
  enabling: boolean;
}

export interface SessionActions {
  connect(): Promise<SessionInfo | undefined>;
  enableAccessibility(): Promise<void>;
  startPick(): Promise<void>;
  cyclePick(delta: number): Promise<void>;
  /** Ends pick mode; with accept, resolves to the picked node (which the caller reveals). */
  stopPick(accept: boolean): Promise<NodeView | undefined>;
  setFollowFocus(on: boolean): Promise<void>;
  say(text: string, level?: 'info' | 'error'): void;
  handleEvent(event: HostEvent): void;
}

export type SessionStore = StoreApi<SessionState & SessionActions>;

export interface SessionCallbacks {
  /** A node was picked or focus moved with follow-focus on: reveal and select it. */
  onReveal(node: NodeView): void;
}

export function createSessionStore(api: InspectorApi, callbacks: SessionCallbacks): SessionStore {
  return createStore<SessionState & SessionActions>()((set, get) => ({
    info: undefined,
    connection: 'connecting',
    error: undefined,
    message: undefined,
    picking: false,
    pickByClick: false,
    pickNode: undefined,
    pickDepth: 0,
    pickStackSize: 0,
    followFocus: false,
    enabling: false,

    async connect() {
      try {
        const info = await api.info();
        set({ info, connection: 'open', error: undefined });
        return info;
      } catch (error) {
        set({ connection: 'closed', error: asApiError(error).message });
        return undefined;
      }
    },

    async enableAccessibility() {
      set({ enabling: true });
      try {
        await api.enableAccessibility();
        const info = await api.info();
        set({ info, enabling: false });
        get().say(info.accessibility === 'on' ? 'Accessibility switched on' : 'Accessibility is still off', 'info');
      } catch (error) {
        set({ enabling: false });
        get().say(`Could not switch accessibility on: ${asApiError(error).message}`, 'error');
      }
    },

    async startPick() {
      try {
        const started = await api.startPick();
        set({ picking: true, pickByClick: started.clickSelects, pickNode: undefined, pickDepth: 0, pickStackSize: 0 });
        get().say(
          started.clickSelects
            ? 'Pick: point at an element; a click (it does not reach the application), Enter or F8 selects, the ' +
                'wheel or ↑/↓ cycles, Escape or a right click cancels'
            : `Pick: point at an element; Enter or F8 selects, ↑/↓ cycles, Escape cancels (clicks are not ` +
                `captured: ${started.note ?? 'unsupported'})`,
        );
      } catch (error) {
        get().say(`Pick mode is not available: ${asApiError(error).message}`, 'error');
      }
    },

    async cyclePick(delta) {
      if (!get().picking) return;
      await api.cyclePick(delta).catch(() => undefined);
    },

    async stopPick(accept) {
      if (!get().picking) return undefined;
      set({ picking: false });
      try {
        const node = await api.stopPick(accept);
        const picked = node ?? (accept ? get().pickNode : undefined);
        get().say(picked ? 'Picked' : 'Pick cancelled');
        return picked;
      } catch (error) {
        get().say(`Pick failed: ${asApiError(error).message}`, 'error');
        return undefined;
      }
    },

    async setFollowFocus(on) {
      try {
        await api.setFollowFocus(on);
        set({ followFocus: on });
      } catch (error) {
        get().say(`Follow focus is not available: ${asApiError(error).message}`, 'error');
      }
    },

    say(text, level = 'info') {
      set({ message: { text, level } });
    },

    handleEvent(event) {
      switch (event.type) {
        case 'pick-hover':
          set({ pickNode: event.node, pickDepth: event.depth, pickStackSize: event.stackSize });
          break;
        case 'pick-end':
          if (get().picking) get().say(event.node ? 'Picked' : 'Pick cancelled');
          set({ picking: false });
          if (event.node) callbacks.onReveal(event.node);
          break;
        case 'focus-changed':
          if (get().followFocus) callbacks.onReveal(event.node);
          break;
        case 'status':
          get().say(event.message, event.level ?? 'info');
          break;
        case 'connection':
          set({ connection: event.state });
          break;
        default:
          break;
      }
    },
  }));
}
