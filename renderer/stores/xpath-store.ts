/**
 * The XPath console: the expression, debounced evaluation as you type, count and time with the first page of
 * results, further pages fetched as the list shows them (the host keeps the results), the engine's error with its
 * position, Stop, and a history of expressions that produced results.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { EvaluationHandle, InspectorClient } from '../../shared/api/client.js';
import type { EvaluationItem } from '../../shared/api/schema.js';
import { RESULT_PAGE } from '../../shared/api/sizes.js';
import { checkNames, type NameProblem, type NameVocabulary } from '../../shared/xpath/name-check.js';
import { errorOf } from '../model/errors.js';

export interface XPathError {
  code: string;
  message: string;
  /** 1-based line and column and the 0-based offset the engine reported, when it did. */
  position?: { line: number; column: number; offset: number };
}

export interface XPathState {
  expression: string;
  status: 'idle' | 'running' | 'done' | 'error' | 'cancelled';
  /** `count` places; a result not fetched yet is undefined (see `loadRange`). */
  results: Array<EvaluationItem | undefined>;
  /** Grows with every page so that list views know to re-render without copying the array. */
  resultsVersion: number;
  /** The host's id of the evaluation the results belong to (for their pages and for highlighting them all). */
  evaluationId: string | undefined;
  count: number;
  ms: number;
  /** The last evaluation was cut off at the host's result limit. */
  truncated: boolean;
  error: XPathError | undefined;
  history: string[];
  selectedIndex: number;
  /** Evaluate as you type. */
  live: boolean;
  /** Element and attribute names in the expression that no known node has (typos), with suggestions. */
  nameProblems: NameProblem[];
}

export interface XPathActions {
  setExpression(text: string, options?: { evaluate?: boolean }): void;
  evaluate(expression?: string): Promise<void>;
  stop(): void;
  selectResult(index: number): void;
  /** Fetches the pages of results in [start, end) not fetched yet; resolves when they are in. */
  loadRange(start: number, end: number): Promise<void>;
  setLive(on: boolean): void;
  clearHistory(): void;
}

export type XPathStore = StoreApi<XPathState & XPathActions>;

export interface XPathStoreOptions {
  debounceMs?: number;
  historyLimit?: number;
  initialHistory?: string[];
  onHistory?: (history: string[]) => void;
  /** The names known (live tree and the providers' catalog) that expressions are checked against. */
  vocabulary?: () => NameVocabulary;
}

/** `1 result (12 ms)`, `3 results (4 ms)`, `Evaluating… 120 results`: the text of the role="status" summary. */
export function summaryText(
  state: Pick<XPathState, 'status' | 'count' | 'ms' | 'error'> & { truncated?: boolean; nameProblems?: NameProblem[] },
): string {
  const n = state.count;
  const noun = n === 1 ? 'result' : 'results';
  switch (state.status) {
    case 'idle':
      return 'Type an XPath expression';
    case 'running':
      return n > 0 ? `Evaluating… ${n} ${noun} so far` : 'Evaluating…';
    case 'done':
      return state.truncated
        ? `First ${n} ${noun}, cut off at the result limit (${Math.round(state.ms)} ms)`
        : `${n} ${noun} (${Math.round(state.ms)} ms)${n === 0 && state.nameProblems?.[0] ? `. ${state.nameProblems[0].message}` : ''}`;
    case 'cancelled':
      return `Stopped: ${n} ${noun} (${Math.round(state.ms)} ms)`;
    case 'error':
      return state.error ? `Error: ${state.error.message}` : 'Error';
  }
}

export function createXPathStore(client: InspectorClient, options: XPathStoreOptions = {}): XPathStore {
  const debounceMs = options.debounceMs ?? 300;
  const historyLimit = options.historyLimit ?? 50;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: EvaluationHandle | undefined;
  let ticket = 0;
  const namesIn = (text: string): NameProblem[] => (options.vocabulary ? checkNames(text, options.vocabulary()) : []);
  /** Pages being fetched for the current evaluation, by page number. */
  let fetching = new Map<number, Promise<void>>();

  return createStore<XPathState & XPathActions>()((set, get) => ({
    expression: '',
    status: 'idle',
    results: [],
    resultsVersion: 0,
    evaluationId: undefined,
    count: 0,
    truncated: false,
    ms: 0,
    error: undefined,
    history: options.initialHistory ?? [],
    selectedIndex: -1,
    live: true,
    nameProblems: [],

    setExpression(text, opts = {}) {
      set({ expression: text, nameProblems: namesIn(text) });
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (opts.evaluate === false || !get().live) return;
      timer = setTimeout(() => {
        timer = undefined;
        void get().evaluate();
      }, debounceMs);
    },

    async evaluate(expression) {
      // An expression given (a locator tried, a history entry) becomes the console's, so editor and results agree.
      if (expression !== undefined && expression !== get().expression) set({ expression });
      const text = (expression ?? get().expression).trim();
      if (timer) clearTimeout(timer);
      timer = undefined;
      // The host cancels the connection's running evaluation when a new one starts.
      const mine = ++ticket;
      if (!text) {
        void current?.cancel().catch(() => undefined);
        current = undefined;
        set({ status: 'idle', results: [], evaluationId: undefined, count: 0, error: undefined, selectedIndex: -1 });
        return;
      }
      const started = performance.now();
      const tick = setInterval(() => {
        if (mine === ticket && get().status === 'running') set({ ms: performance.now() - started });
      }, 100);
      fetching = new Map();
      set({
        status: 'running',
        nameProblems: namesIn(get().expression),
        truncated: false,
        results: [],
        evaluationId: undefined,
        count: 0,
        ms: 0,
        error: undefined,
        selectedIndex: -1,
        resultsVersion: get().resultsVersion + 1,
      });
      const evaluation = client.evaluate(text, { pageSize: RESULT_PAGE });
      current = evaluation;
      try {
        const summary = await evaluation.done.finally(() => clearInterval(tick));
        if (mine !== ticket) return;
        current = undefined;
        const results: Array<EvaluationItem | undefined> = new Array<EvaluationItem | undefined>(summary.count);
        const first = summary.items ?? [];
        for (let i = 0; i < first.length; i++) results[i] = first[i];
        set({
          status: 'done',
          results,
          evaluationId: evaluation.id,
          count: summary.count,
          ms: summary.ms,
          truncated: summary.truncated === true,
          resultsVersion: get().resultsVersion + 1,
        });
        const history = [text, ...get().history.filter((h) => h !== text)].slice(0, historyLimit);
        set({ history });
        options.onHistory?.(history);
      } catch (error) {
        if (mine !== ticket) return;
        current = undefined;
        const e = errorOf(error);
        const ms = performance.now() - started;
        if (e.code === 'cancelled') set({ status: 'cancelled', ms });
        else {
          set({
            status: 'error',
            ms,
            error: { code: e.code, message: e.message, ...(e.position ? { position: e.position } : {}) },
          });
        }
      }
    },

    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (!current) return;
      void current.cancel().catch(() => undefined);
      current = undefined;
      ticket++;
      if (get().status === 'running') set({ status: 'cancelled' });
    },

    selectResult(index) {
      set({ selectedIndex: index });
    },

    async loadRange(start, end) {
      const { evaluationId: id, results } = get();
      if (id === undefined) return;
      const last = Math.min(end, results.length);
      const waits: Promise<void>[] = [];
      for (let page = Math.floor(Math.max(0, start) / RESULT_PAGE); page * RESULT_PAGE < last; page++) {
        const from = page * RESULT_PAGE;
        if (results[from] !== undefined) continue;
        let pending = fetching.get(page);
        if (!pending) {
          const pages = fetching;
          pending = client.evaluationPage(id, from, RESULT_PAGE).then(
            ({ items }) => {
              if (get().evaluationId !== id) return;
              const into = get().results;
              for (let i = 0; i < items.length; i++) into[from + i] = items[i];
              set({ resultsVersion: get().resultsVersion + 1 });
            },
            // The host no longer keeps them (a newer evaluation of this connection took their place): nothing to show.
            () => void pages.delete(page),
          );
          fetching.set(page, pending);
        }
        waits.push(pending);
      }
      await Promise.all(waits);
    },

    setLive(on) {
      set({ live: on });
    },

    clearHistory() {
      set({ history: [] });
      options.onHistory?.([]);
    },
  }));
}
