import { AttributeNames as A } from '../../../shared/model/attributes.js';
import type { AttributeEntry } from '../../../shared/model/attributes.js';
import { InspectorError } from '../../../shared/model/errors.js';
import type { Namespace } from '../../../shared/model/namespaces.js';
import type { UiValue } from '../../../shared/model/values.js';
import { uiBool, uiInteger, uiString } from '../../../shared/model/values.js';
import type { ActionRequest, ProviderAttribute, ProviderNode } from '../../core/provider.js';
import type { WindowManager } from '../../core/platform.js';
import type { AtspiCalls } from './atspi-calls.js';
import type { AttributeContext, ExtraAttribute, NodeAttribute } from './attributes.js';
import { beginReadingAll, buildAttributes, FailedRead, readAll, readObjectAttributes } from './attributes.js';
import { isGoneError, isNotRespondingError } from '../../dbus/dbus-client.js';
import type { NodeData } from './node-data.js';
import { hasInterface, runtimeIdOf } from './node-data.js';
import type { PatternContext } from './patterns.js';
import { performAction, supportedPatterns } from './patterns.js';
import { ATSPI_ROLE, mapRole } from './roles.js';
import { hasState, S } from './states.js';
import type { NodeStore, TreeLoader } from './tree-loader.js';

/** What a node needs from its provider. */
export interface NodeHost {
  readonly calls: AtspiCalls;
  readonly store: NodeStore;
  readonly loader: TreeLoader;
  readonly windowManager: WindowManager | undefined;
  nodeFor(data: NodeData): AtspiNode;
  /** Runs the application's bulk load once (shared by concurrent callers). */
  ensureBulk(root: NodeData): Promise<void>;
  /** Makes the developer ids of the application's nodes definitive. */
  loadIds(app: NodeData['app']): Promise<void>;
  /** Asks a not-responding application's root again; true (and its header fresh) once it answers. */
  recheckApplication(root: NodeData): Promise<boolean>;
}

/** Roles whose text is secret by nature; an entry also counts when the application marks it as a password input. */
export function secureByAttributes(attributes: { [key: string]: string } | undefined): boolean {
  if (!attributes) return false;
  const type = (attributes['text-input-type'] ?? attributes['input-type'] ?? '').toLowerCase();
  return type === 'password';
}

/** The node is its own AttributeContext and PatternContext: no context object or memo made per question. */
export class AtspiNode implements ProviderNode, PatternContext {
  private memoMap: Map<string, Promise<unknown>> | undefined;
  private guardFn: ((error: unknown) => never) | undefined;
  private childrenPromise: Promise<readonly ProviderNode[]> | undefined;
  private childNodes: readonly ProviderNode[] | undefined;
  private attributeList: NodeAttribute[] | undefined;
  /** The attribute list was built while the application's ids were deferred (it has no Id yet). */
  private attributeListWithoutIds = false;
  /** Grows whenever the attribute list is dropped: attribute objects of older lists stop serving held values. */
  attributeGeneration = 0;

  constructor(
    private readonly host: NodeHost,
    readonly data: NodeData,
    readonly isApplication: boolean,
  ) {}

  /** Values read for this node (the node is its own AttributeContext: no context object per node). */
  get memo(): Map<string, Promise<unknown>> {
    return (this.memoMap ??= new Map());
  }
  get calls(): AtspiCalls {
    return this.host.calls;
  }
  private get guard(): (error: unknown) => never {
    return (this.guardFn ??= (error: unknown): never => this.fail(error));
  }

  get runtimeId(): string {
    return this.data.key;
  }
  get namespace(): Namespace {
    return this.isApplication ? 'app' : mapRole(this.data.role).namespace;
  }
  get role(): string {
    return this.isApplication ? 'Application' : mapRole(this.data.role).role;
  }
  get name(): string {
    return this.data.name;
  }
  /** Undefined when not set, or while the application's ids are deferred (see loadId). */
  get id(): string | undefined {
    return this.data.accessibleId ? this.data.accessibleId : undefined;
  }

  /**
   * Makes `id` definitive for this node and every node of its application: a bulk load from a complete cache leaves
   * the ids out (the cache does not carry them) until someone asks; then one bulk call reads them all.
   */
  expectAllAttributes(): void {
    const app = this.data.app;
    if (app.bulk === 'none') app.attributesWanted = true;
  }

  async loadId(): Promise<void> {
    const app = this.data.app;
    // Asked before the application's bulk load: that load reads the ids with the structure (one more bulk call
    // beside the cache call instead of one after it).
    if (app.bulk === 'none') app.idsWanted = true;
    if (app.ids === 'loaded' && app.bulk !== 'loading') return;
    try {
      await this.host.loadIds(app);
    } catch (error) {
      this.fail(error);
    }
  }
  /**
   * The ids are definitive without a call: the application's tree came in bulk (or is walked node by node, each
   * header with its id) and its ids are loaded. Before the bulk load loadId() still has to run: it marks the ids
   * wanted, so the load reads them with the structure.
   */
  get idLoaded(): boolean {
    const app = this.data.app;
    return app.ids === 'loaded' && (app.bulk === 'loaded' || app.bulk === 'lazy');
  }
  get isSecure(): boolean {
    const data = this.data;
    if (data.knownSecure) return true;
    if (data.role === ATSPI_ROLE.PasswordText || secureByAttributes(data.objectAttributes)) data.knownSecure = true;
    return data.knownSecure;
  }

  private fail(error: unknown): never {
    throw this.failure(error);
  }

  /** What a failed call means for this node: a gone element is a stale node (and marks it invalid). */
  private failure(error: unknown): unknown {
    if (!isGoneError(error)) return error;
    this.data.invalid = true;
    return new InspectorError('stale-node', `the element ${this.data.key} no longer exists`, {
      runtimeId: this.data.key,
    });
  }

  private checkUsable(): void {
    if (this.data.invalid || this.data.app.gone) {
      throw new InspectorError('stale-node', `the element ${this.data.key} no longer exists`, {
        runtimeId: this.data.key,
      });
    }
  }

  private async fresh(): Promise<void> {
    this.checkUsable();
    const parent = this.parentData;
    if (!this.data.stale && !this.data.partial && !parent?.partial) return;
    try {
      // Patterns ask the parent's interfaces too (a list item is selectable through its list's Selection).
      await Promise.all([
        this.data.stale ? this.host.loader.refreshHeader(this.data) : this.host.loader.completeHeader(this.data),
        parent ? this.host.loader.completeHeader(parent).catch(() => undefined) : undefined,
      ]);
    } catch (error) {
      this.fail(error);
    }
  }

  peekChildren(): readonly ProviderNode[] | undefined {
    const data = this.data;
    if (data.children === undefined || data.stale || data.invalid || data.app.gone) return undefined;
    this.childNodes ??= this.childNodesOf(data.children);
    return this.childNodes;
  }

  children(): Promise<readonly ProviderNode[]> {
    const data = this.data;
    // Fast path: children known and nothing stale (the common case after a bulk load).
    if (data.children !== undefined && !data.stale && !data.invalid && !data.app.gone) {
      this.childNodes ??= this.childNodesOf(data.children);
      return Promise.resolve(this.childNodes);
    }
    if (!this.childrenPromise || data.children === undefined) {
      const promise = this.loadChildren();
      this.childrenPromise = promise;
      promise.then(
        (nodes) => {
          if (this.childrenPromise === promise) this.childNodes = nodes;
        },
        () => {
          if (this.childrenPromise === promise) this.childrenPromise = undefined;
        },
      );
    }
    return this.childrenPromise;
  }

  private async loadChildren(): Promise<readonly ProviderNode[]> {
    await this.fresh();
    const data = this.data;
    // A hung application has no children to show; once its back-off passed, one call tells whether it is back.
    if (this.isApplication && !data.app.responding && !(await this.host.recheckApplication(data))) return [];
    try {
      // An application's own children (its top-level windows) come by GetChildren: listing the desktop must not load
      // whole applications. The bulk load starts when something below a window is needed, and keeps the window
      // nodes already known (it updates their data in place).
      const app = data.app;
      if (!this.isApplication && (app.bulk === 'none' || app.bulk === 'loading')) {
        const root = this.host.store.get(runtimeIdOf(app.root));
        if (root) await this.host.ensureBulk(root);
      }
      if (data.children === undefined) await this.host.loader.loadChildren(data);
    } catch (error) {
      if (this.isApplication && isNotRespondingError(error)) {
        data.app.responding = false;
        return [];
      }
      this.fail(error);
    }
    return this.childNodesOf(data.children ?? []);
  }

  private childNodesOf(keys: readonly string[]): AtspiNode[] {
    const out: AtspiNode[] = [];
    for (const key of keys) {
      const child = this.host.store.get(key);
      if (child && !child.invalid) out.push(this.host.nodeFor(child));
    }
    return out;
  }

  get windowManager(): WindowManager | undefined {
    return this.host.windowManager;
  }

  get parentData(): NodeData | undefined {
    return this.data.parentKey ? this.host.store.get(this.data.parentKey) : undefined;
  }

  /** Entries may be password inputs by attribute: that must be known before deciding which attributes exist. */
  private needsSecurityCheck(): boolean {
    const data = this.data;
    const entryLike = data.role === ATSPI_ROLE.Entry || data.role === ATSPI_ROLE.Text;
    return entryLike && data.objectAttributes === undefined && !data.knownSecure && hasInterface(data, 'Text');
  }

  private async learnSecurity(): Promise<void> {
    if (!this.needsSecurityCheck()) return;
    const ctx: AttributeContext = { data: this.data, calls: this.host.calls, isSecure: false, memo: this.memo };
    try {
      await readObjectAttributes(ctx);
    } catch (error) {
      this.fail(error);
    }
  }

  private applicationAttributes(): ExtraAttribute[] {
    const info = this.data.app.processInfo;
    const out: ExtraAttribute[] = [];
    const add = (name: string, value: string | number | undefined) => {
      if (value === undefined) return;
      out.push({ namespace: 'control', name, value: typeof value === 'number' ? uiInteger(value) : uiString(value) });
    };
    add(A.ProcessId, this.data.app.processId);
    add(A.ProcessName, info?.processName);
    add(A.ExecutablePath, info?.executablePath);
    add(A.CommandLine, info?.commandLine);
    add(A.UserName, info?.userName);
    add(A.StartTime, info?.startTime);
    add(A.Architecture, info?.architecture);
    out.push({ namespace: 'control', name: A.IsResponding, value: uiBool(this.data.app.responding) });
    return out;
  }

  private attributeObjects(): Promise<NodeAttribute[]> {
    const held = this.peekAttributes();
    if (held) return Promise.resolve(held);
    return this.fresh()
      .then(() => this.learnSecurity())
      .then(() => (this.attributeList = this.buildAttributeList()));
  }

  /**
   * The attribute list without any call when the header is current and security known; undefined otherwise. With
   * `names` and no list built yet: only the attributes with those names, made for this call and not kept.
   */
  peekAttributes(names?: ReadonlySet<string>): NodeAttribute[] | undefined {
    const data = this.data;
    if (this.attributeListWithoutIds && data.app.ids === 'loaded') this.attributeList = undefined;
    if (data.stale || data.partial || data.invalid || data.app.gone || this.needsSecurityCheck()) return undefined;
    if (names && !this.attributeList) return this.buildAttributeList(names);
    return (this.attributeList ??= this.buildAttributeList());
  }

  private buildAttributeList(names?: ReadonlySet<string>): NodeAttribute[] {
    if (!names) this.attributeListWithoutIds = this.data.app.ids === 'deferred';
    const extra = this.isApplication ? this.applicationAttributes() : [];
    return buildAttributes(this, this.guard, this.isApplication ? 'Application' : undefined, extra, names);
  }

  attributes(): Promise<readonly ProviderAttribute[]> {
    return this.attributeObjects();
  }

  /** The current attribute list, for attributes of an outdated list (AttributeOwner). */
  currentAttributes(): Promise<readonly NodeAttribute[]> {
    return this.attributeObjects();
  }

  async readAllAttributes(): Promise<readonly AttributeEntry[]> {
    // (No promise to wait for where nothing is to be done: a snapshot reads ten thousand nodes this way.)
    if (!this.idLoaded) await this.loadId();
    const list = this.peekAttributes() ?? (await this.attributeObjects());
    beginReadingAll(this);
    // Held values come without a call or a promise; attributes made from one read share it.
    const read = readAll(this, list);
    const values = read instanceof Promise ? await read : read;
    const out: AttributeEntry[] = [];
    for (let i = 0; i < list.length; i++) {
      const attribute = list[i] as NodeAttribute;
      const value = values[i] as UiValue | FailedRead;
      if (!(value instanceof FailedRead)) {
        out.push({ namespace: attribute.namespace, name: attribute.name, value });
        continue;
      }
      // What read() would have rejected with (a gone element is a stale node).
      const error = value.unmapped ? this.failure(value.error) : value.error;
      // A hung application is shown with what is known of it: what it would have to answer is left out.
      const hungApplication = this.isApplication && !this.data.app.responding;
      if (error instanceof InspectorError && error.code === 'not-responding' && hungApplication) continue;
      if (error instanceof InspectorError && (error.code === 'stale-node' || error.code === 'not-responding')) {
        throw error;
      }
      // An attribute the element cannot deliver (method missing, refused) is left out.
    }
    return out;
  }

  peekSupportedPatterns(): readonly string[] | undefined {
    const data = this.data;
    if (data.stale || data.partial || data.invalid || data.app.gone || this.needsSecurityCheck()) return undefined;
    if (this.parentData?.partial) return undefined;
    return supportedPatterns(this);
  }

  async supportedPatterns(): Promise<readonly string[]> {
    await this.fresh();
    await this.learnSecurity();
    return supportedPatterns(this);
  }

  async performAction(request: ActionRequest): Promise<void> {
    await this.fresh();
    await this.learnSecurity();
    try {
      await performAction(this, request);
    } catch (error) {
      this.fail(error);
    }
    // The action may have changed states: read them again next time.
    this.invalidate();
  }

  async isValid(): Promise<boolean> {
    if (this.data.invalid || this.data.app.gone) return false;
    try {
      const states = await this.host.calls.getState(this.data.ref);
      if (hasState(states, S.Defunct)) {
        this.data.invalid = true;
        return false;
      }
      return true;
    } catch (error) {
      if (isGoneError(error)) {
        this.data.invalid = true;
        return false;
      }
      if (error instanceof InspectorError && error.code === 'unsupported') {
        this.data.invalid = true;
        return false;
      }
      throw error;
    }
  }

  releaseReadValues(): void {
    this.memoMap = undefined;
    this.attributeList = undefined;
  }

  /** Drops attribute values and the attribute list after an event updated the header in place. */
  dropAttributes(): void {
    this.data.loadedAttributes = undefined;
    this.data.loadedTextState = undefined;
    this.memoMap?.clear();
    this.attributeList = undefined;
    this.attributeGeneration++;
  }

  invalidate(): void {
    this.attributeGeneration++;
    this.memoMap?.clear();
    this.childrenPromise = undefined;
    this.childNodes = undefined;
    this.attributeList = undefined;
    this.data.children = undefined;
    this.data.objectAttributes = undefined;
    this.data.loadedAttributes = undefined;
    this.data.loadedTextState = undefined;
    if (!this.isApplication || this.data.app.bulk !== 'loading') this.data.stale = true;
  }
}
