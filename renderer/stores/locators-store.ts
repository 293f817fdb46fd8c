/**
 * The Export panel's locators: ranked, verified locators of one node (`locate`) and, for the best one, the code a
 * test author pastes (`export` in robot, python and dogtail), which follows the locators. A late answer for another
 * node is dropped.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InspectorClient } from '../../shared/api/client.js';
import type { ApiLocator } from '../../shared/api/schema.js';
import { errorOf } from '../model/errors.js';

export const CODE_FORMATS = ['robot', 'python', 'dogtail'] as const;
export type CodeFormat = (typeof CODE_FORMATS)[number];

export interface LocatorsState {
  runtimeId: string | undefined;
  locators: ApiLocator[];
  /** Code for the best locator, by format (a format the host could not render is absent). */
  code: Partial<Record<CodeFormat, string>>;
  busy: boolean;
  error: string | undefined;
}

export interface LocatorsActions {
  find(runtimeId: string): Promise<void>;
  clear(): void;
}

export type LocatorsStore = StoreApi<LocatorsState & LocatorsActions>;

export function createLocatorsStore(client: InspectorClient): LocatorsStore {
  let ticket = 0;
  const empty = { locators: [], code: {}, busy: false, error: undefined };
  return createStore<LocatorsState & LocatorsActions>()((set) => ({
    runtimeId: undefined,
    ...empty,

    async find(runtimeId) {
      const mine = ++ticket;
      set({ ...empty, runtimeId, busy: true });
      try {
        const { locators } = await client.locate(runtimeId);
        if (mine !== ticket) return;
        // The locators show as soon as they are known; the code for the best one follows.
        set({
          locators,
          busy: false,
          error: locators.length === 0 ? 'No locator identifies this node' : undefined,
        });
        if (locators.length === 0) return;
        const code: Partial<Record<CodeFormat, string>> = {};
        await Promise.all(
          CODE_FORMATS.map(async (format) => {
            const exported = await client.exportCode(runtimeId, format).catch(() => undefined);
            if (exported) code[format] = exported.code;
          }),
        );
        if (mine === ticket) set({ code });
      } catch (error) {
        if (mine !== ticket) return;
        set({ busy: false, error: errorOf(error).message });
      }
    },

    clear() {
      ticket++;
      set({ ...empty, runtimeId: undefined });
    },
  }));
}
