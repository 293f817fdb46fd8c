import { z } from 'zod';
import { EXPAND_ALL_NODES, MAX_RECORDED_STEPS, MAX_RESULT_PAGE, MAX_SUBTREE_NODES, RESULT_PAGE } from './sizes.js';
import { messageData } from './message-json.js';
import { checkJsonShape, type JsonShapeLimits, type JsonShapeProblem } from './json-shape.js';
import type { UiValue } from '../model/values.js';
import { ERROR_CODES } from '../model/errors.js';
import { CHECK_FORMATS } from '../checks/model.js';
import { UI_EVENT_TYPES } from '../model/ui-events.js';
import { ASSERTABLE_ATTRIBUTES } from '../recording/steps.js';
import { RECORDING_FORMATS } from '../recording/export.js';

export { EXPAND_ALL_NODES, MAX_RECORDED_STEPS, MAX_RESULT_PAGE, MAX_SUBTREE_NODES, RESULT_PAGE };

/**
 * The inspector API, defined once. The renderer talks to the runtime only through these messages, whichever host
 * carries them (a WebSocket for the browser host, Electron IPC for the shell). Every message is validated with these
 * schemas where it crosses a boundary; a malformed one gets an error reply, never a crash.
 *
 * Wire format (JSON):
 *   client -> host  { kind: 'request', id, method, params }
 *   host -> client  { kind: 'response', id, ok: true, result } | { kind: 'response', id, ok: false, error }
 *   host -> client  { kind: 'event', event: { type, ... } }
 */

export const API_VERSION = 1;

// ---------------------------------------------------------------------------------------------------------------
// Values

export const NamespaceSchema = z.enum(['control', 'item', 'app', 'native']);

const finite = z.number().refine((value) => Number.isFinite(value), 'must be a finite number');
export const RectSchema = z.strictObject({ x: finite, y: finite, width: finite, height: finite });
export const PointSchema = z.strictObject({ x: finite, y: finite });
export const SizeSchema = z.strictObject({ width: finite, height: finite });

export const UiValueSchema: z.ZodType<UiValue> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('String'), value: z.string() }),
    z.strictObject({ type: z.literal('Bool'), value: z.boolean() }),
    z.strictObject({ type: z.literal('Integer'), value: z.number().int() }),
    z.strictObject({ type: z.literal('Number'), value: z.number() }),
    z.strictObject({ type: z.literal('Null') }),
    z.strictObject({ type: z.literal('Rect'), value: RectSchema }),
    z.strictObject({ type: z.literal('Point'), value: PointSchema }),
    z.strictObject({ type: z.literal('Size'), value: SizeSchema }),
    z.strictObject({ type: z.literal('Array'), value: z.array(UiValueSchema) }),
    z.strictObject({ type: z.literal('Object'), value: z.record(z.string(), UiValueSchema) }),
  ]),
);

export const ErrorCodeSchema = z.enum(ERROR_CODES);

export const ErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  position: z.object({ line: z.number(), column: z.number(), offset: z.number() }).optional(),
  runtimeId: z.string().optional(),
  /** For `invalid-input`: where in the message the problem is (`params.limit`). */
  path: z.string().optional(),
});
/** An InspectorError on the wire (InspectorError.toData / fromData). */
export type ApiError = z.infer<typeof ErrorSchema>;

const runtimeId = z.string().min(1).max(4096);

/** A node as the tree shows it. `revision` is what pattern actions send back as `expectedRevision`. */
export const NodeSummarySchema = z.object({
  runtimeId: z.string(),
  namespace: NamespaceSchema,
  role: z.string(),
  name: z.string(),
  id: z.string().optional(),
  revision: z.number().int(),
  /** Number of structural children when the host already knows them; absent when not fetched yet. */
  childCount: z.number().int().nonnegative().optional(),
  /** Hint for the expander: false only when the node is known to be childless. */
  hasChildren: z.boolean(),
  /** True when the node no longer exists (it was removed or the tree was rebuilt). */
  stale: z.boolean(),
  technology: z.string(),
  /** An application's process id, where the provider holds it without a call. */
  processId: z.number().int().optional(),
});
export type NodeSummary = z.infer<typeof NodeSummarySchema>;

export const AttributeSchema = z.object({
  namespace: NamespaceSchema,
  name: z.string(),
  value: UiValueSchema,
  /** Aliases the runtime derives from a structured value (Bounds.X ...). */
  derived: z.boolean(),
});
export type ApiAttribute = z.infer<typeof AttributeSchema>;

export const PatternInfoSchema = z.object({
  name: z.string(),
  kind: z.enum(['client', 'runtime', 'unknown']),
  /** The pattern's attributes the node has (required and optional ones), with their values. */
  attributes: z.array(AttributeSchema),
  /** The attributes the catalog requires but the node lacks (a provider bug worth showing). */
  missing: z.array(z.string()),
  actions: z.array(z.string()),
});
export type PatternInfo = z.infer<typeof PatternInfoSchema>;

export const EvaluationItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('node'), node: NodeSummarySchema }),
  z.object({
    type: z.literal('attribute'),
    owner: NodeSummarySchema,
    namespace: NamespaceSchema,
    name: z.string(),
    value: UiValueSchema,
  }),
  z.object({ type: z.literal('value'), value: UiValueSchema }),
]);
export type EvaluationItem = z.infer<typeof EvaluationItemSchema>;

export const MonitorSchema = z.object({
  id: z.string(),
  name: z.string(),
  bounds: RectSchema,
  isPrimary: z.boolean(),
  scale: z.number(),
});

export const ProviderStatusSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  technology: z.string(),
  state: z.enum(['ready', 'degraded', 'unavailable']),
  message: z.string().optional(),
});
export type ProviderStatusInfo = z.infer<typeof ProviderStatusSchema>;

export const AccessibilityStatusSchema = z.object({
  /** False only when the platform has an accessibility switch (AT-SPI) and it is off. */
  enabled: z.boolean(),
  /** Whether `accessibility.enable` can switch it on here. */
  canEnable: z.boolean(),
  busAddress: z.string().optional(),
  message: z.string(),
});
export type AccessibilityStatusInfo = z.infer<typeof AccessibilityStatusSchema>;

/** What this host can do, so that a front end offers only what works (the renderer's feature switches). */
export const CapabilitiesSchema = z.object({
  /** Picking with the pointer (`pick.*`): the platform has a pointer device. */
  pick: z.boolean(),
  /** Outlining elements on screen (`highlight`). */
  highlight: z.boolean(),
  /** `focus.changed` events: a provider reports property changes, the keyboard focus among them. */
  followFocus: z.boolean(),
  /** Ranked locators and code (`locate`, `export`). */
  locators: z.boolean(),
  /** `host.stop`: the page may end its host and what the host started (the browser host's `serve`). */
  stop: z.boolean(),
  /** `screen.capture`: the platform can take screenshots (the Screen panel). */
  screen: z.boolean(),
  /** `screen.click`, `screen.scroll`, `screen.type`: the platform has a pointer and a keyboard (interact mode). */
  interact: z.boolean(),
  /** `recording.*`: the platform copies the user's input (X11 with RECORD). */
  record: z.boolean(),
});
export type Capabilities = z.infer<typeof CapabilitiesSchema>;

const JsonSchema: z.ZodType<unknown> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonSchema), z.record(z.string(), JsonSchema)]),
);
export const SettingsSchema = z.record(z.string().max(200), JsonSchema);
export type Settings = z.infer<typeof SettingsSchema>;

/** A verified locator (shared/locators): selects exactly the node. */
export const LocatorSchema = z.object({
  xpath: z.string(),
  strategy: z.string(),
  reason: z.string(),
  /** Robustness 1..100, higher is better. */
  score: z.number(),
  matches: z.number().int(),
});
export type ApiLocator = z.infer<typeof LocatorSchema>;
export const EXPORT_FORMAT_NAMES = ['json', 'xpath', 'robot', 'python', 'dogtail'] as const;

/** One accessibility finding (shared/checks) on a node of the checked subtree. */
export const CheckFindingSchema = z.object({
  rule: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  node: z.object({ runtimeId: z.string(), namespace: NamespaceSchema, role: z.string(), name: z.string() }),
});
export type ApiCheckFinding = z.infer<typeof CheckFindingSchema>;
/** At most this many findings come back (`truncated` says when there were more). */
export const MAX_CHECK_FINDINGS = 5000;

/** The tab order of one window as the keyboard walk found it (`check` with `tabOrder`). */
export const TabOrderWindowSchema = z.object({
  window: z.object({ runtimeId: z.string(), role: z.string(), name: z.string() }),
  order: z.array(
    z.object({
      runtimeId: z.string(),
      role: z.string().nullable(),
      name: z.string().nullable(),
      bounds: RectSchema.optional(),
    }),
  ),
  end: z.enum(['returned', 'trap', 'step-limit', 'time-limit', 'no-focus']),
  presses: z.number().int(),
});
export type ApiTabOrderWindow = z.infer<typeof TabOrderWindowSchema>;

const TypedPartSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('chord'), keys: z.array(z.string()).readonly() }),
  z.object({ kind: z.literal('secret'), variable: z.string() }),
]);
/** One recorded step (shared/recording/steps.ts): what was done, on which element, found by which locators. */
export const RecordedStepSchema = z.object({
  id: z.number().int(),
  action: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('click'), button: z.enum(['left', 'middle', 'right']), count: z.number().int() }),
    z.object({ kind: z.literal('type'), parts: z.array(TypedPartSchema).readonly() }),
    z.object({ kind: z.literal('focus') }),
    z.object({ kind: z.literal('select') }),
    z.object({ kind: z.literal('scroll'), deltaX: z.number().int(), deltaY: z.number().int() }),
    z.object({ kind: z.literal('drag'), button: z.enum(['left', 'middle', 'right']), to: PointSchema }),
    z.object({ kind: z.literal('assert'), attribute: z.enum(ASSERTABLE_ATTRIBUTES), expected: z.string() }),
  ]),
  target: z.object({
    runtimeId: z.string(),
    namespace: NamespaceSchema,
    role: z.string(),
    name: z.string(),
    locators: z.array(LocatorSchema).readonly(),
  }),
  /** A short description (`click Button "OK"`). */
  description: z.string(),
});
export type ApiRecordedStep = z.infer<typeof RecordedStepSchema>;
/** The host's recording: running or not, and its steps in order. */
export const RecordingStateSchema = z.object({
  recording: z.boolean(),
  /** How the platform records (X11: RECORD); `none` before the first recording. */
  mechanism: z.string(),
  steps: z.array(RecordedStepSchema),
  /** Clicks on nothing the tree knows and keys typed while nothing had the focus (not part of any step). */
  unattributed: z.number().int(),
  maxSteps: z.number().int(),
  /** Recording stopped because it reached `maxSteps`. */
  limitReached: z.boolean(),
});
export type RecordingStateInfo = z.infer<typeof RecordingStateSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Methods: params and results

/** Nodes one highlight outlines at most. */
export const MAX_HIGHLIGHT_NODES = 10_000;

const empty = z.strictObject({});

/** Element and attribute names the providers know, as written in XPath (the console checks names against them). */
export const NameCatalogSchema = z.object({ elements: z.array(z.string()), attributes: z.array(z.string()) });
export type NameCatalog = z.infer<typeof NameCatalogSchema>;

const AttributeChangeSchema = z.object({
  name: z.string(),
  before: z.string().optional(),
  after: z.string().optional(),
});
/** Two snapshots compared (shared/snapshot/diff.ts): nodes added, removed and changed with their attributes. */
export const SnapshotDiffSchema = z.object({
  same: z.boolean(),
  nodes: z.object({ before: z.number().int(), after: z.number().int() }),
  added: z.number().int(),
  removed: z.number().int(),
  changed: z.number().int(),
  entries: z.array(
    z.object({
      kind: z.enum(['added', 'removed', 'changed']),
      path: z.string(),
      label: z.string(),
      attributes: z.array(AttributeChangeSchema),
      descendants: z.number().int(),
    }),
  ),
  truncated: z.boolean(),
});
export type SnapshotDiffResult = z.infer<typeof SnapshotDiffSchema>;
const snapshotText = z.strictObject({ xml: z.string(), name: z.string().min(1).max(500) });
const nodeRef = z.strictObject({ runtimeId });
const ActionArgsSchema = z.strictObject({
  value: z.union([z.string().max(1_000_000), finite]).optional(),
  x: finite.optional(),
  y: finite.optional(),
  width: finite.optional(),
  height: finite.optional(),
});

export const SCREEN_IMAGE_FORMATS = ['png', 'jpeg'] as const;
/** Image = desktop × scale + (x, y): where a desktop point lands in a captured image. */
export const ScreenTransformSchema = z.object({ scale: z.number(), x: z.number(), y: z.number() });
export type ScreenTransform = z.infer<typeof ScreenTransformSchema>;
/** One element under a point on screen, with its Bounds (null when it has none). */
export const ScreenHitSchema = z.object({ node: NodeSummarySchema, bounds: RectSchema.nullable() });
export type ScreenHit = z.infer<typeof ScreenHitSchema>;
const screenPoint = { x: finite, y: finite };

export const methods = {
  /** The root of everything, with what the host knows about the screen. */
  desktop: {
    params: empty,
    result: z.object({
      node: NodeSummarySchema,
      technology: z.string(),
      osVersion: z.string(),
      bounds: RectSchema,
      monitors: z.array(MonitorSchema),
    }),
  },
  /** One node's summary (fresh: name and revision as they are now). */
  node: { params: nodeRef, result: NodeSummarySchema },
  /** Structural children of a node in a range; `total` is the number of children. */
  children: {
    params: z.strictObject({
      runtimeId,
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().positive().max(10_000).default(500),
      /** Drop cached children first and read them again. */
      refresh: z.boolean().default(false),
    }),
    result: z.object({
      runtimeId: z.string(),
      revision: z.number().int(),
      total: z.number().int().nonnegative(),
      offset: z.number().int().nonnegative(),
      nodes: z.array(NodeSummarySchema),
    }),
  },
  /**
   * Expand-all in one request: the child lists of the node and of every node below it, breadth first, as long as
   * the nodes they hold stay within `maxNodes` (`truncated` says some lists were left out). A node listed without
   * a list of its own and with `hasChildren` false is a leaf.
   */
  subtree: {
    params: z.strictObject({
      runtimeId,
      maxNodes: z.number().int().positive().max(MAX_SUBTREE_NODES).default(EXPAND_ALL_NODES),
    }),
    result: z.object({
      runtimeId: z.string(),
      lists: z.array(z.object({ parentRuntimeId: z.string(), nodes: z.array(NodeSummarySchema) })),
      /** Nodes in the lists. */
      nodes: z.number().int().nonnegative(),
      truncated: z.boolean(),
    }),
  },
  /** The chain from the desktop down to the node's parent (to reveal a node in the tree). */
  ancestors: { params: nodeRef, result: z.object({ nodes: z.array(NodeSummarySchema) }) },
  /** Every attribute with its typed value; secret values are never present. */
  attributes: {
    params: z.strictObject({ runtimeId, refresh: z.boolean().default(false) }),
    result: z.object({ runtimeId: z.string(), revision: z.number().int(), attributes: z.array(AttributeSchema) }),
  },
  patterns: {
    params: nodeRef,
    result: z.object({ runtimeId: z.string(), revision: z.number().int(), patterns: z.array(PatternInfoSchema) }),
  },
  /** Runs a pattern action; refused with `stale-node` when the node changed since `expectedRevision`. */
  action: {
    params: z.strictObject({
      runtimeId,
      expectedRevision: z.number().int(),
      action: z.string().min(1).max(100),
      args: ActionArgsSchema.default({}),
    }),
    result: z.object({ node: NodeSummarySchema }),
  },
  /**
   * Evaluates XPath 3.1; results stream as `evaluation.items` events carrying the same id, then the response
   * carries the summary. A new evaluation on the same connection cancels the previous one unless `queue` is set.
   * With `pageSize` nothing streams: the answer carries the count and the first page (`items`), the host keeps the
   * results (the connection's last few evaluations) for `evaluation.page` and for `highlight` by `evaluationId`.
   */
  evaluate: {
    params: z.strictObject({
      id: z.string().min(1).max(200),
      xpath: z.string().max(100_000),
      contextRuntimeId: runtimeId.optional(),
      /** Default: the host's `limits.evaluationTimeoutMs` (30 s); counted from the request, queueing included. */
      timeoutMs: z.number().int().positive().max(600_000).optional(),
      /** At most this many results (never more than the host's `limits.maxResults`, 100,000 by default). */
      maxResults: z.number().int().positive().optional(),
      queue: z.boolean().default(false),
      pageSize: z.number().int().positive().max(MAX_RESULT_PAGE).optional(),
    }),
    result: z.object({
      id: z.string(),
      count: z.number().int(),
      ms: z.number(),
      engine: z.string(),
      /** The results were cut off at the result cap: `count` results came, there were more. */
      truncated: z.boolean().default(false),
      /** With `pageSize`: the first page of the results. */
      items: z.array(EvaluationItemSchema).optional(),
    }),
  },
  /** Results of a paged evaluation the host still keeps (the connection's last few), from `offset`. */
  'evaluation.page': {
    params: z.strictObject({
      id: z.string().min(1).max(200),
      offset: z.number().int().nonnegative(),
      limit: z.number().int().positive().max(MAX_RESULT_PAGE).default(RESULT_PAGE),
    }),
    result: z.object({
      id: z.string(),
      offset: z.number().int(),
      count: z.number().int(),
      items: z.array(EvaluationItemSchema),
    }),
  },
  cancel: { params: z.strictObject({ id: z.string().min(1).max(200) }), result: z.object({ cancelled: z.boolean() }) },
  /**
   * Outlines nodes (by their Bounds) or rectangles on screen; replaces the previous highlight. `evaluationId` adds
   * the nodes of a paged evaluation's results the host keeps (the owner of an attribute), at most 10,000 of them.
   */
  highlight: {
    params: z.strictObject({
      runtimeIds: z.array(runtimeId).max(MAX_HIGHLIGHT_NODES).optional(),
      evaluationId: z.string().min(1).max(200).optional(),
      rects: z.array(RectSchema).max(10_000).optional(),
      durationMs: z.number().int().positive().max(3_600_000).optional(),
    }),
    result: z.object({ rects: z.array(RectSchema), shown: z.boolean() }),
  },
  'highlight.clear': { params: empty, result: z.object({ cleared: z.boolean() }) },
  /**
   * Typed accessibility events (`ui.events`) for this connection until `events.unsubscribe`; a new subscription
   * replaces the connection's one. `types` (default: all) and `xpath` (only the selected elements and their
   * descendants) filter; at most `limits.eventBuffer` events wait for the connection (oldest dropped, counted).
   */
  'events.subscribe': {
    params: z.strictObject({
      types: z.array(z.enum(UI_EVENT_TYPES)).max(UI_EVENT_TYPES.length).optional(),
      xpath: z.string().min(1).max(10_000).optional(),
      /** Only events of this node and its descendants (the UI's selected subtree). */
      within: runtimeId.optional(),
    }),
    result: z.object({ subscribed: z.boolean(), bufferLimit: z.number().int() }),
  },
  'events.unsubscribe': { params: empty, result: z.object({ unsubscribed: z.boolean() }) },
  /**
   * Follows the pointer: `pick.hover` events until `pick.stop`, `pick.select` or a `pick.selected`. Where the
   * platform can capture the pointer (X11), a left click in any application selects the element under it (the
   * click never reaches the application), the wheel cycles the stack, a right click or Escape cancels
   * (`pick.stopped`); `clickSelects` says whether it could, `clickNote` why not.
   */
  'pick.start': {
    params: z.strictObject({ intervalMs: z.number().int().min(10).max(2000).default(60) }),
    result: z.object({ started: z.boolean(), clickSelects: z.boolean(), clickNote: z.string().optional() }),
  },
  /** Selects what the pointer is over now (the shortcut), emits `pick.selected` and stops picking. */
  'pick.select': { params: empty, result: z.object({ node: NodeSummarySchema.nullable() }) },
  /** Moves along the stack of elements at the pointer: +1 deeper, -1 towards the window. */
  'pick.cycle': { params: z.strictObject({ delta: z.number().int() }), result: z.object({ depth: z.number().int() }) },
  'pick.stop': { params: empty, result: z.object({ stopped: z.boolean() }) },
  /** Ranked, verified locators for a node (shared/locators), best first. */
  locate: {
    params: z.strictObject({ runtimeId, limit: z.number().int().positive().max(100).default(10) }),
    result: z.object({ runtimeId: z.string(), locators: z.array(LocatorSchema) }),
  },
  /**
   * The node's best locator as code (shared/export): json, xpath, robot, python or dogtail; `action` is none, click,
   * focus or `type:<text>` (what the generated code does).
   */
  export: {
    params: z.strictObject({
      runtimeId,
      format: z.enum(EXPORT_FORMAT_NAMES),
      action: z.string().max(10_000).default('none'),
    }),
    result: z.object({ format: z.string(), code: z.string(), locators: z.array(LocatorSchema) }),
  },
  /**
   * Accessibility checks (shared/checks) over the node's subtree (the desktop without one), every rule or those
   * named; `config` is the text of a `check --config` file. With `format`, the report as the CLI writes it
   * (findings with their verified locators), else only the findings. With `tabOrder`, the keyboard walk's order per
   * window too, and the rules tab-unreachable and tab-trap run.
   */
  check: {
    params: z.strictObject({
      runtimeId: runtimeId.optional(),
      rules: z.array(z.string().max(100)).max(100).optional(),
      config: z
        .string()
        .max(256 * 1024)
        .optional(),
      format: z.enum(CHECK_FORMATS).optional(),
      /** Walks the tab order with the platform keyboard (it takes the keyboard focus for a while). */
      tabOrder: z.boolean().optional(),
    }),
    result: z.object({
      findings: z.array(CheckFindingSchema),
      tabOrder: z.array(TabOrderWindowSchema).optional(),
      truncated: z.boolean(),
      rules: z.array(z.object({ id: z.string(), severity: z.string(), findings: z.number().int() })),
      nodesChecked: z.number().int(),
      report: z.string().optional(),
    }),
  },
  /** The subtree as snapshot XML (the `snapshot` command's format). */
  snapshot: {
    params: z.strictObject({
      runtimeId: runtimeId.optional(),
      maxDepth: z.number().int().nonnegative().optional(),
      attrs: z.enum(['none', 'default', 'all']).default('default'),
    }),
    result: z.object({ xml: z.string(), nodes: z.number().int() }),
  },
  /** Compares two snapshot documents (each named for its errors); the list stops at 5,000 entries (`truncated`). */
  'snapshot.diff': {
    params: z.strictObject({ before: snapshotText, after: snapshotText }),
    result: SnapshotDiffSchema,
  },
  /**
   * Shows a snapshot instead of the live desktop on this connection: read-only and offline (the mock provider over
   * the text, no platform). Every tree method then answers from it until `snapshot.close`; settings stay the host's.
   */
  'snapshot.open': { params: snapshotText, result: z.object({ name: z.string(), nodes: z.number().int() }) },
  /** Back to the live desktop (false when no snapshot was open). */
  'snapshot.close': { params: empty, result: z.object({ closed: z.boolean() }) },
  /** The element and attribute names the providers know. */
  names: { params: empty, result: NameCatalogSchema },
  'settings.get': { params: empty, result: z.object({ settings: SettingsSchema }) },
  /**
   * Merges the values into the settings (null removes a key) and persists them (soon after, coalesced). Refused with
   * `limit-exceeded` when the settings would pass `limits.maxSettingsBytes`; the answer names the keys, not the values.
   */
  'settings.set': {
    params: z.strictObject({ values: SettingsSchema }),
    result: z.object({ changed: z.array(z.string()), bytes: z.number().int().nonnegative() }),
  },
  /** Providers, platform and what is unavailable. */
  status: {
    params: empty,
    result: z.object({
      apiVersion: z.number().int(),
      /** The inspector's version (its package.json). */
      version: z.string().optional(),
      platform: z.string(),
      unavailable: z.array(z.object({ device: z.string(), reason: z.string() })),
      providers: z.array(ProviderStatusSchema),
      nodesFetched: z.number().int(),
      accessibility: AccessibilityStatusSchema,
      capabilities: CapabilitiesSchema,
      /** Present while the connection shows an opened snapshot (offline, read-only). */
      snapshot: z.object({ name: z.string() }).optional(),
    }),
  },
  'accessibility.status': { params: empty, result: AccessibilityStatusSchema },
  'accessibility.enable': { params: empty, result: AccessibilityStatusSchema },
  /**
   * The desktop (or a region of it, clipped to the desktop) as an image at a scale (at most 1: the page zooms), PNG
   * or JPEG, base64 in `data`. The image has at most `limits.maxScreenPixels` pixels (`limit-exceeded` names the
   * scale that fits). With `ifChanged` set to the `digest` of an earlier answer, an unchanged screen comes back as
   * `changed: false` without `data`; `waitMs` makes that a long poll. Captures run one at a time.
   */
  'screen.capture': {
    params: z.strictObject({
      region: RectSchema.optional(),
      scale: z.number().min(0.01).max(1).default(1),
      format: z.enum(SCREEN_IMAGE_FORMATS).default('png'),
      /** JPEG quality, 1 to 100. */
      quality: z.number().int().min(1).max(100).default(80),
      ifChanged: z.string().max(200).optional(),
      /**
       * With `ifChanged`, where the host is told of screen changes (`changeEvents`): wait up to this long for a change
       * since that capture before capturing, so a client long-polls instead of polling.
       */
      waitMs: z.number().int().min(0).max(2000).default(0),
    }),
    result: z.object({
      changed: z.boolean(),
      /** The host is told when the screen changes (X DAMAGE): `waitMs` waits for a change; else poll. */
      changeEvents: z.boolean(),
      /** How long the host waited for a change (`waitMs`) before capturing. */
      waitedMs: z.number(),
      digest: z.string(),
      /** The desktop rectangle captured. */
      region: RectSchema,
      width: z.number().int(),
      height: z.number().int(),
      transform: ScreenTransformSchema,
      mimeType: z.string(),
      data: z.string().optional(),
    }),
  },
  /**
   * The elements at a desktop point through the one hit test (the same as `pick`): deepest first, then its
   * ancestors up to the window; empty when nothing is there.
   */
  'screen.elementAt': {
    params: z.strictObject(screenPoint),
    result: z.object({ stack: z.array(ScreenHitSchema) }),
  },
  /** The Bounds of nodes, in order (null for a node without Bounds or one that went away). */
  'screen.bounds': {
    params: z.strictObject({ runtimeIds: z.array(runtimeId).max(10_000) }),
    result: z.object({ rects: z.array(RectSchema.nullable()) }),
  },
  /** Clicks at a desktop point through the platform's pointer (interact mode); `count` 2 is a double click. */
  'screen.click': {
    params: z.strictObject({
      ...screenPoint,
      button: z.enum(['left', 'middle', 'right']).default('left'),
      count: z.number().int().min(1).max(3).default(1),
    }),
    result: z.object({ done: z.boolean() }),
  },
  /** Wheel steps at a desktop point (positive deltaY scrolls down, deltaX right). */
  'screen.scroll': {
    params: z.strictObject({
      ...screenPoint,
      deltaX: z.number().int().min(-50).max(50).default(0),
      deltaY: z.number().int().min(-50).max(50).default(0),
    }),
    result: z.object({ done: z.boolean() }),
  },
  /** Types a keyboard sequence (the CLI `keyboard type` syntax: text and `<Ctrl+a>` chords) into the focused window. */
  'screen.type': {
    params: z.strictObject({ keys: z.string().min(1).max(10_000) }),
    result: z.object({ done: z.boolean() }),
  },
  /**
   * Records what the user does in the inspected applications (never in the inspector's own windows) as steps,
   * replacing the previous recording; `recording.changed` events carry the steps as they come. One recording per
   * host: starting one stops another's. It stops at `recording.stop`, at `maxSteps`, or when the connection that
   * started it closes; its steps stay (for editing and export) until the next start.
   */
  'recording.start': {
    params: z.strictObject({
      maxSteps: z.number().int().positive().max(MAX_RECORDED_STEPS).default(MAX_RECORDED_STEPS),
    }),
    result: RecordingStateSchema,
  },
  /** Stops recording once the input already copied became steps and their locators were verified. */
  'recording.stop': { params: empty, result: RecordingStateSchema },
  /** The recording as it is now (a page that connects while one runs). */
  'recording.state': { params: empty, result: RecordingStateSchema },
  'recording.deleteStep': {
    params: z.strictObject({ id: z.number().int().nonnegative() }),
    result: RecordingStateSchema,
  },
  /** Makes another of the step's verified locators its first (the one the scripts use). */
  'recording.chooseLocator': {
    params: z.strictObject({ id: z.number().int().nonnegative(), xpath: z.string().min(1).max(100_000) }),
    result: RecordingStateSchema,
  },
  /** Adds a step asserting the node's attribute as it is now (never a secure field's value). */
  'recording.assert': {
    params: z.strictObject({ runtimeId, attribute: z.enum(ASSERTABLE_ATTRIBUTES) }),
    result: RecordingStateSchema,
  },
  /** The recording as a script: Robot Framework, Python (platynui_native), dogtail or a shell script of the CLI. */
  'recording.export': {
    params: z.strictObject({ format: z.enum(RECORDING_FORMATS) }),
    result: z.object({ format: z.enum(RECORDING_FORMATS), script: z.string(), steps: z.number().int() }),
  },
  /** Ends the host and everything it started (a virtual desktop and its applications), like Ctrl-C does. */
  'host.stop': { params: empty, result: z.object({ stopping: z.boolean() }) },
} as const;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type ParamsInput<M extends MethodName> = z.input<Methods[M]['params']>;
export type Params<M extends MethodName> = z.output<Methods[M]['params']>;
export type Result<M extends MethodName> = z.output<Methods[M]['result']>;
export const METHOD_NAMES = Object.keys(methods) as MethodName[];

// ---------------------------------------------------------------------------------------------------------------
// Events

const UiEventNodeSchema = z.object({ runtimeId: z.string(), role: z.string().nullable(), name: z.string().nullable() });
export const UiEventRecordSchema = z.object({
  time: z.string(),
  type: z.enum(UI_EVENT_TYPES),
  runtimeId: z.string(),
  role: z.string().nullable(),
  name: z.string().nullable(),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null(), UiEventNodeSchema])),
});

export const TreeChangeSchema = z.object({
  kind: z.enum(['NodeAdded', 'NodeUpdated', 'NodeRemoved', 'TreeInvalidated']),
  runtimeId: z.string().optional(),
  parentRuntimeId: z.string().optional(),
  providerId: z.string(),
});
export type TreeChange = z.infer<typeof TreeChangeSchema>;

export const EventSchema = z.discriminatedUnion('type', [
  /** Provider changes, coalesced (at most one event every ~50 ms). */
  z.object({ type: z.literal('tree.changed'), changes: z.array(TreeChangeSchema), overflow: z.boolean() }),
  z.object({
    type: z.literal('pick.hover'),
    node: NodeSummarySchema.nullable(),
    bounds: RectSchema.optional(),
    point: PointSchema,
    /** Depth in the stack of elements at the point (0 = deepest). */
    depth: z.number().int(),
    stackSize: z.number().int(),
  }),
  z.object({ type: z.literal('pick.selected'), node: NodeSummarySchema }),
  z.object({ type: z.literal('pick.stopped'), reason: z.string() }),
  /** The keyboard focus moved to this node (providers that report focus changes: AT-SPI, the mock). */
  z.object({ type: z.literal('focus.changed'), node: NodeSummarySchema }),
  z.object({ type: z.literal('evaluation.items'), id: z.string(), items: z.array(EvaluationItemSchema) }),
  z.object({ type: z.literal('provider.status'), providers: z.array(ProviderStatusSchema) }),
  /**
   * Events of the connection's subscription, gathered for up to 100 ms; `received`, `coalesced` (merged into a newer
   * event of the same kind and node) and `dropped` (past the buffer) count since it subscribed.
   */
  z.object({
    type: z.literal('ui.events'),
    events: z.array(UiEventRecordSchema),
    received: z.number().int(),
    coalesced: z.number().int(),
    dropped: z.number().int(),
  }),
  /**
   * The recording changed (at most one event every ~100 ms): `steps` holds the steps added or changed since the last
   * event, `removed` the ids of those deleted; the steps keep the order of their ids.
   */
  z.object({
    type: z.literal('recording.changed'),
    recording: z.boolean(),
    steps: z.array(RecordedStepSchema),
    removed: z.array(z.number().int()),
    unattributed: z.number().int(),
    limitReached: z.boolean(),
  }),
]);
export type InspectorEvent = z.infer<typeof EventSchema>;
export type EventType = InspectorEvent['type'];

// ---------------------------------------------------------------------------------------------------------------
// Envelopes

export const RequestEnvelopeSchema = z.strictObject({
  kind: z.literal('request'),
  id: z.number().int().nonnegative(),
  method: z.string(),
  params: z.unknown().optional(),
});

export const ResponseEnvelopeSchema = z.union([
  z.object({ kind: z.literal('response'), id: z.number().int().nullable(), ok: z.literal(true), result: z.unknown() }),
  z.object({ kind: z.literal('response'), id: z.number().int().nullable(), ok: z.literal(false), error: ErrorSchema }),
]);
export const EventEnvelopeSchema = z.object({ kind: z.literal('event'), event: EventSchema });

export type RequestMessage = { kind: 'request'; id: number; method: MethodName; params: unknown };
export type ResponseMessage =
  | { kind: 'response'; id: number | null; ok: true; result: unknown }
  | { kind: 'response'; id: number | null; ok: false; error: ApiError };
export type EventMessage = { kind: 'event'; event: InspectorEvent };
export type ServerMessage = ResponseMessage | EventMessage;

function describeIssues(error: z.ZodError, prefix: string): { message: string; path: string } {
  const issue = error.issues[0];
  const path = [prefix, ...(issue?.path ?? []).map(String)].filter(Boolean).join('.');
  return { message: `${path || 'message'}: ${issue?.message ?? 'invalid'}`, path };
}

export type ParsedRequest =
  { ok: true; id: number; method: MethodName; params: unknown } | { ok: false; id: number | null; error: ApiError };

/** What a host accepts unless configured otherwise (main/api/limits.ts holds the host's configurable limits). */
export const DEFAULT_REQUEST_LIMITS: JsonShapeLimits = { maxBytes: 4 * 1024 * 1024, maxDepth: 64 };

function shapeError(problem: JsonShapeProblem, limits: JsonShapeLimits, id: number | null): ParsedRequest {
  const message =
    problem.kind === 'size'
      ? `message too large: over ${limits.maxBytes} bytes of JSON (limits.maxMessageBytes)`
      : problem.kind === 'depth'
        ? `message nested too deeply at ${problem.path}: more than ${limits.maxDepth} levels (limits.maxMessageDepth)`
        : `message holds a value JSON cannot carry at ${problem.path}`;
  return {
    ok: false,
    id,
    error: { code: 'invalid-input', message, ...(problem.kind === 'size' ? {} : { path: problem.path }) },
  };
}

function requestId(data: unknown): number | null {
  const candidate = data && typeof data === 'object' ? (data as { id?: unknown }).id : undefined;
  return typeof candidate === 'number' && Number.isInteger(candidate) && candidate >= 0 ? candidate : null;
}

/**
 * Validates a raw request (text or already-parsed JSON): size and nesting first (without recursion, so no message
 * can overflow a stack), then the envelope, the method name and the method's params.
 */
export function parseRequest(raw: unknown, limits: JsonShapeLimits = DEFAULT_REQUEST_LIMITS): ParsedRequest {
  let data = raw;
  if (typeof raw === 'string') {
    if (raw.length > limits.maxBytes) return shapeError({ kind: 'size' }, limits, null);
    try {
      data = JSON.parse(raw);
    } catch {
      return { ok: false, id: null, error: { code: 'invalid-input', message: 'message is not valid JSON' } };
    }
  }
  const problem = checkJsonShape(data, limits);
  if (problem) return shapeError(problem, limits, requestId(data));
  const envelope = RequestEnvelopeSchema.safeParse(data);
  if (!envelope.success) {
    const id = requestId(data);
    const { message, path } = describeIssues(envelope.error, '');
    return { ok: false, id, error: { code: 'invalid-input', message: `malformed request: ${message}`, path } };
  }
  const { id, method } = envelope.data;
  if (!Object.hasOwn(methods, method)) {
    return { ok: false, id, error: { code: 'invalid-input', message: `unknown method "${method}"`, path: 'method' } };
  }
  const name = method as MethodName;
  const params = methods[name].params.safeParse(envelope.data.params ?? {});
  if (!params.success) {
    const { message, path } = describeIssues(params.error, 'params');
    return { ok: false, id, error: { code: 'invalid-input', message: `${name}: ${message}`, path } };
  }
  return { ok: true, id, method: name, params: params.data };
}

/** Validates a message from the host (the client side of the boundary). */
export function parseServerMessage(raw: unknown): { ok: true; message: ServerMessage } | { ok: false; error: string } {
  const received = messageData(raw);
  if (!received.ok) return received;
  const data = received.data;
  const kind = (data as { kind?: unknown } | null)?.kind;
  const schema = kind === 'event' ? EventEnvelopeSchema : ResponseEnvelopeSchema;
  const parsed = schema.safeParse(data);
  if (!parsed.success) return { ok: false, error: describeIssues(parsed.error, '').message };
  return { ok: true, message: parsed.data as ServerMessage };
}

export function parseResult<M extends MethodName>(
  method: M,
  result: unknown,
): { ok: true; value: Result<M> } | { ok: false; error: string } {
  const parsed = methods[method].result.safeParse(result);
  if (!parsed.success) return { ok: false, error: `${method} result: ${describeIssues(parsed.error, '').message}` };
  return { ok: true, value: parsed.data as Result<M> };
}
