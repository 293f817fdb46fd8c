/**
 * What the inspector UI needs from a host, as a small interface of its own: the stores are written against it, and
 * `connect.ts` backs it with the transport the page runs on (the browser host's WebSocket, the Electron preload).
 * Tests back it with the in-memory implementation in `memory-api.ts`.
 */
import type { AttributeEntry } from '../../shared/model/attributes.js';
import type { InspectorErrorData } from '../../shared/model/errors.js';
import type { Namespace } from '../../shared/model/namespaces.js';
import type { Point, UiValue } from '../../shared/model/values.js';

/** A node as the UI shows it in the tree and in results. */
export interface NodeView {
  runtimeId: string;
  namespace: Namespace;
  role: string;
  name: string;
  /** Undefined when the host does not know without fetching the children. */
  hasChildren?: boolean;
  /** Grows whenever the node changed; actions carry the revision the UI showed so a changed node can be refused. */
  revision: number;
  /** The node is gone (or the host could not confirm it still exists). */
  stale?: boolean;
}

export interface ProviderInfo {
  id: string;
  name: string;
  technology: string;
  state: string;
}

export interface SessionInfo {
  /** The desktop node, root of the tree. */
  desktop: NodeView;
  providers: ProviderInfo[];
  /** 'off' when the desktop's accessibility switch is off: the UI shows the switch-on page. */
  accessibility: 'on' | 'off' | 'unknown';
  platform?: string;
  /** Which optional features the host supports (pick, highlight, locators, ...). */
  features: { pick: boolean; highlight: boolean; locators: boolean; followFocus: boolean };
}

export type ResultItem =
  | { type: 'node'; node: NodeView }
  | { type: 'attribute'; owner: NodeView; namespace: Namespace; name: string; value: UiValue }
  | { type: 'value'; value: UiValue };

export interface EvaluationSummary {
  count: number;
  ms: number;
  /** The host's result cap cut the results off (there were more than `count`). */
  truncated?: boolean;
}

export interface Evaluation {
  /** Resolves when the evaluation finished; rejects with an ApiError (cancelled, xpath-syntax, timeout ...). */
  done: Promise<EvaluationSummary>;
  cancel(): void;
}

/** A pattern the node supports, with its attributes and actions (the host's view, or the catalog's). */
export interface PatternView {
  name: string;
  actions: string[];
  attributes?: AttributeEntry[];
  /** Attributes the catalog requires that the node lacks. */
  missing?: string[];
}

export interface ActionResult {
  ok: true;
  message?: string;
}

export interface Locator {
  xpath: string;
  /** Higher is better. */
  score?: number;
  unique?: boolean;
  description?: string;
  code?: { [language: string]: string };
}

export type HostEvent =
  /** The children or properties of nodes changed; `runtimeId` undefined means the whole tree. */
  | {
      type: 'tree-changed';
      kind: 'NodeAdded' | 'NodeRemoved' | 'NodeUpdated' | 'TreeInvalidated';
      runtimeId?: string;
      parentRuntimeId?: string;
    }
  /** Pick mode: the node under the pointer at `depth` in the stack of `stackSize` elements there (0 = deepest). */
  | { type: 'pick-hover'; point?: Point; node: NodeView | undefined; depth: number; stackSize: number }
  | { type: 'pick-end'; node?: NodeView }
  | { type: 'focus-changed'; node: NodeView }
  | { type: 'status'; message: string; level?: 'info' | 'error' }
  | { type: 'connection'; state: 'open' | 'closed' };

export interface PickStart {
  clickSelects: boolean;
  note?: string;
}

export interface InspectorApi {
  info(): Promise<SessionInfo>;
  children(runtimeId: string): Promise<NodeView[]>;
  attributes(runtimeId: string): Promise<AttributeEntry[]>;
  patterns(runtimeId: string): Promise<PatternView[]>;
  /** The chain from the desktop down to the node, both included. */
  path(runtimeId: string): Promise<NodeView[]>;
  /** Drops cached data of the node (and its subtree) so the next reads are fresh. */
  refresh(runtimeId: string, subtree: boolean): Promise<void>;
  performAction(runtimeId: string, action: string, args: unknown, revision: number): Promise<ActionResult>;
  evaluate(expression: string, onItems: (items: ResultItem[]) => void): Evaluation;
  highlight(runtimeIds: string[]): Promise<void>;
  clearHighlight(): Promise<void>;
  /** Starts pick mode; says whether a click in an application selects (the host captures the pointer), or why not. */
  startPick(): Promise<PickStart>;
  /** Moves through the stack of overlapping elements at the pointer (+1 deeper/next, -1 back). */
  cyclePick(delta: number): Promise<void>;
  /** Ends pick mode; with accept the node currently highlighted is returned. */
  stopPick(accept: boolean): Promise<NodeView | undefined>;
  setFollowFocus(on: boolean): Promise<void>;
  enableAccessibility(): Promise<void>;
  locators(runtimeId: string): Promise<Locator[]>;
  subscribe(listener: (event: HostEvent) => void): () => void;
}

/** Errors from the host arrive as data with a code; the UI shows the message. */
export class ApiError extends Error {
  readonly code: string;
  readonly position: InspectorErrorData['position'];
  constructor(data: { code: string; message: string; position?: InspectorErrorData['position'] }) {
    super(data.message);
    this.name = 'ApiError';
    this.code = data.code;
    this.position = data.position;
  }
}

export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error && typeof error === 'object' && 'code' in error && 'message' in error) {
    const e = error as { code: unknown; message: unknown; position?: InspectorErrorData['position'] };
    return new ApiError({
      code: String(e.code),
      message: String(e.message),
      ...(e.position ? { position: e.position } : {}),
    });
  }
  return new ApiError({ code: 'internal', message: error instanceof Error ? error.message : String(error) });
}

export function roleLabel(node: { namespace: string; role: string }): string {
  return node.namespace === 'control' ? node.role : `${node.namespace}:${node.role}`;
}

/** `Button "OK"`, or just the role when the node has no name: the row label in the tree and in results. */
export function nodeLabel(node: { namespace: string; role: string; name: string }): string {
  const role = roleLabel(node);
  return node.name ? `${role} "${node.name}"` : role;
}
