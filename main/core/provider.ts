import type { AttributeEntry } from '../../shared/model/attributes.js';
import type { Namespace } from '../../shared/model/namespaces.js';
import type { UiValue } from '../../shared/model/values.js';
import type { UiEventChange, UiEventType } from '../../shared/model/ui-events.js';
import type { BackendOptions } from './backend-options.js';
import type { WindowManager } from './platform.js';

/**
 * The provider contract (PlatynUI §7): a provider reads one accessibility technology and hands the runtime lazily
 * produced nodes. The runtime never names a concrete provider; factories register themselves (see registry.ts).
 */

/** How much a provider can tell about change (PlatynUI §5.7); the runtime picks its refresh strategy from it. */
/** The runtime id of the desktop, the root of every tree (providers name it for events on the desktop itself). */
export const DESKTOP_RUNTIME_ID = 'platynui:Desktop';

export type EventCapability = 'None' | 'ChangeHint' | 'Structure' | 'StructureWithProperties';

export type ProviderKind = 'native' | 'external' | 'mock';

export interface ProviderDescriptor {
  /** Stable id used on the command line: `--provider atspi`. */
  id: string;
  displayName: string;
  /** Technology the provider speaks, e.g. `AT-SPI2`, `Mock`. */
  technology: string;
  kind: ProviderKind;
  eventCapabilities: EventCapability;
  /** Opt-in providers (the mock) are only created when named explicitly, never by default. */
  optIn: boolean;
  /** Operating systems on which the provider is a default choice. */
  defaultOn: readonly NodeJS.Platform[];
  /**
   * The platform backend this provider goes with when it is the only kind named and no platform is (the mock
   * provider with the mock platform, so a mock run is the same on any machine).
   */
  pairedPlatform?: string;
  /**
   * Element names (roles as written in XPath: `Button`, `item:ListItem`) and attribute names this provider can
   * produce beyond the control attributes every node may have, so typos can be told from names not loaded yet.
   */
  names?: { readonly elements: readonly string[]; readonly attributes?: readonly string[] };
  /**
   * Every `app:Application` node the provider makes is one of its roots (a child of the desktop), never deeper: a
   * query for applications then looks only at the desktop's children (XdmTree.applicationsOnlyAtTop).
   */
  applicationsOnlyAtTop?: boolean;
}

export interface ProviderOptions {
  /** Per-call timeout for calls into the accessibility technology. */
  callTimeoutMs?: number;
}

export interface ProviderContext {
  options: ProviderOptions;
  /** Each backend's own options (see BackendOptions); a provider reads the entry under its id. */
  backendOptions: BackendOptions;
  /** The runtime's window manager, so window patterns drive this runtime's session (PlatynUI §7). */
  windowManager: WindowManager | undefined;
}

export interface ProviderFactory {
  readonly descriptor: ProviderDescriptor;
  /** Throws InspectorError('provider-unavailable' | 'accessibility-disabled') when the technology is not there. */
  create(context: ProviderContext): Promise<UiTreeProvider>;
  /** The technology's system-wide accessibility switch, where it has one (AT-SPI: org.a11y.Status.IsEnabled). */
  readonly accessibilitySwitch?: AccessibilitySwitch;
}

/** Whether the applications of a technology expose their accessibility trees, and how to make them. */
export interface AccessibilitySwitchState {
  readonly enabled: boolean;
  /** Where the technology's accessibility bus is, when it has one and it was found. */
  readonly busAddress?: string | undefined;
  /** A sentence a person understands, including what to do when accessibility is off. */
  readonly message: string;
}

export interface AccessibilitySwitch {
  /** Never throws for "off"; throws InspectorError when the switch cannot be asked. */
  state(): Promise<AccessibilitySwitchState>;
  /** Switches accessibility on and returns the new state. */
  enable(): Promise<AccessibilitySwitchState>;
}

export type ProviderEvent =
  | { kind: 'NodeAdded'; runtimeId: string; parentRuntimeId?: string }
  /** The provider's node already reflects the change when it announces it. */
  | { kind: 'NodeUpdated'; runtimeId: string; attributes?: readonly string[] }
  | { kind: 'NodeRemoved'; runtimeId: string; parentRuntimeId?: string }
  | { kind: 'TreeInvalidated'; reason?: string };

export type ProviderEventListener = (event: ProviderEvent) => void;

/**
 * One change an application reported, typed (one kind per change; shared/model/ui-events.ts). A text-changed change
 * may carry text: the event service drops it for secure nodes before anything shows it.
 */
export type ProviderUiEvent = UiEventChange & { runtimeId: string };
export type ProviderUiEventListener = (event: ProviderUiEvent) => void;

/** What an event record says about its node; read on demand for nodes the provider does not hold. */
export interface NodeDescription {
  namespace: Namespace;
  role: string;
  name: string;
  isSecure: boolean;
}

export interface ProviderStatus {
  state: 'ready' | 'degraded' | 'unavailable';
  message?: string;
  details?: { [key: string]: string | number | boolean };
}

export interface UiTreeProvider {
  readonly descriptor: ProviderDescriptor;
  /**
   * Top-level nodes: `app:Application` nodes whose children are their top-level windows, or windows that belong to
   * no application. The runtime builds the flat and the grouped desktop views from them.
   */
  roots(): Promise<readonly ProviderNode[]>;
  subscribe(listener: ProviderEventListener): () => void;
  /**
   * Typed events of these kinds until the returned function is called. Kinds the provider does not need for its own
   * tree are asked of the applications only while someone watches them. Providers without events leave it out.
   */
  watchUiEvents?(types: ReadonlySet<UiEventType>, listener: ProviderUiEventListener): () => void;
  /** Role, name and security of a node by runtime id (read when not held); undefined when it is gone. */
  describeNode?(runtimeId: string): Promise<NodeDescription | undefined>;
  status(): ProviderStatus;
  /**
   * Elements containing a desktop point inside the application with this process id, deepest first (for picking);
   * providers without hit testing leave it out.
   */
  nodesAtPoint?(point: { x: number; y: number }, processId: number | undefined): Promise<readonly ProviderNode[]>;
  /**
   * The element with this runtime id and its ancestors up to its top-level window, deepest first; empty when the
   * provider does not find it (not its own, gone). Lets the runtime load an element an event named before the tree
   * had loaded it; providers whose nodes are all loaded at once leave it out.
   */
  ancestryOf?(runtimeId: string): Promise<readonly ProviderNode[]>;
  /** Releases everything held on the host (connections, timers). Idempotent. */
  shutdown(): Promise<void>;
}

export interface ActionRequest {
  action: string;
  /** `setValue`: the text or number; `move`: x, y; `resize`: width, height. */
  value?: string | number;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
}

export interface ProviderAttribute {
  namespace: Namespace;
  name: string;
  /** Reads the value on demand; reading can mean a round trip to the accessibility technology. */
  read(): Promise<UiValue>;
  /**
   * The value when the provider already holds it (e.g. header data from a bulk load), without any call or promise;
   * undefined when it would have to ask, and always for a node that went stale, was invalidated or changed since
   * this attribute was handed out: then read(), which refreshes. Never serves a secret (Text, Value ... of a secure
   * node). Lets clients that read many values (snapshots, queries) skip one promise per value.
   */
  peek?(): UiValue | undefined;
}

/** One UI element as a provider sees it. Children and attribute values are produced lazily. */
export interface ProviderNode {
  /** `prefix:value`, stable for the element's lifetime; `platynui:` is reserved for the desktop. */
  readonly runtimeId: string;
  readonly namespace: Namespace;
  readonly role: string;
  readonly name: string;
  /**
   * Developer id (AutomationId, accessible_id); undefined when not set, never empty. A provider that defers ids
   * (reads them only when asked, because its bulk source does not carry them) also leaves it undefined, and leaves
   * the attributes that carry it out of attributes(), until loadId() resolved.
   */
  readonly id: string | undefined;
  /**
   * Providers that defer ids: makes `id` (and the attributes carrying it) definitive for this node and for the nodes
   * the provider holds below it (peekChildren). The runtime calls it before it shows a node or reads its attributes.
   */
  loadId?(): Promise<void>;
  /**
   * Providers that defer ids: true when `id` is definitive now, so loadId() would resolve without doing anything
   * (lets a walk over ten thousand held nodes skip one promise each).
   */
  readonly idLoaded?: boolean;
  /** True when the node holds a secret (password field): its Text and Value are never read. */
  readonly isSecure: boolean;
  children(): Promise<readonly ProviderNode[]>;
  /**
   * The children when the provider already holds them (e.g. after a bulk load), without any call; undefined when
   * it would have to ask. Lets the runtime hand a whole loaded region to a query at once.
   */
  peekChildren?(): readonly ProviderNode[] | undefined;
  /** The attributes the node has, with lazily read values. Never includes derived aliases (Bounds.X ...). */
  attributes(): Promise<readonly ProviderAttribute[]>;
  /**
   * The attribute list when the provider can hand it out without any call (what attributes() would answer now);
   * undefined when it would have to ask (a stale node, one whose security is not known yet ...). With `names`, the
   * list may leave out the attributes with other local names (a walk that reads a few attributes of each of ten
   * thousand nodes need not have every attribute of each made); those it holds come in the same order.
   */
  peekAttributes?(names?: ReadonlySet<string>): readonly ProviderAttribute[] | undefined;
  /** All attribute values at once; providers may do this in bulk. */
  readAllAttributes?(): Promise<readonly AttributeEntry[]>;
  /**
   * Tells the provider that every attribute of the nodes of this node's application will be read (a snapshot with
   * all attributes): a bulk load that has not begun may bring along what it can carry of them.
   */
  expectAllAttributes?(): void;
  /**
   * Drops the values read for this node and its attribute list (not its header data nor its children): for a caller
   * that read them once and will not ask again (a streamed snapshot), so memory does not grow with the tree. The next
   * read asks again.
   */
  releaseReadValues?(): void;
  supportedPatterns(): Promise<readonly string[]>;
  /** What supportedPatterns() would answer now, when the provider knows it without any call; else undefined. */
  peekSupportedPatterns?(): readonly string[] | undefined;
  performAction(request: ActionRequest): Promise<void>;
  isValid(): Promise<boolean>;
  /** Discards cached children, attributes and patterns; the next access fetches fresh data. */
  invalidate(): void;
}
