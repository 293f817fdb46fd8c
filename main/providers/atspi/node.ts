import { AttributeNames as A } from '../../../shared/model/attributes.js';
import type { AttributeEntry } from '../../../shared/model/attributes.js';
import { InspectorError } from '../../../shared/model/errors.js';
import type { Namespace } from '../../../shared/model/namespaces.js';
import { uiInteger, uiString } from '../../../shared/model/values.js';
import type { ActionRequest, ProviderAttribute, ProviderNode } from '../../runtime/provider.js';
import type { WindowManager } from '../../runtime/platform.js';
import type { AtspiCalls } from './atspi-calls.js';
import type { AttributeContext, AttributeSpec } from './attributes.js';
import { attributeSpecs, readObjectAttributes, toProviderAttributes } from './attributes.js';
import { isGoneError, isNotRespondingError } from './dbus-client.js';
import type { NodeData } from './node-data.js';
import { hasInterface } from './node-data.js';
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
}

/** Roles whose text is secret by nature; an entry also counts when the application marks it as a password input. */
function secureByAttributes(attributes: { [key: string]: string } | undefined): boolean {
  if (!attributes) return false;
  const type = (attributes['text-input-type'] ?? attributes['input-type'] ?? '').toLowerCase();
  return type === 'password';
}

export class AtspiNode implements ProviderNode {
  private readonly memo = new Map<string, Promise<unknown>>();
  private childrenPromise: Promise<readonly ProviderNode[]> | undefined;

  constructor(
    private readonly host: NodeHost,
    readonly data: NodeData,
    readonly isApplication: boolean,
  ) {}

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
  get id(): string | undefined {
    return this.data.accessibleId ? this.data.accessibleId : undefined;
  }
  get isSecure(): boolean {
    const data = this.data;
    if (data.knownSecure) return true;
    if (data.role === ATSPI_ROLE.PasswordText || secureByAttributes(data.objectAttributes)) data.knownSecure = true;
    return data.knownSecure;
  }

  private fail(error: unknown): never {
    if (isGoneError(error)) {
      this.data.invalid = true;
      throw new InspectorError('stale-node', `the element ${this.data.key} no longer exists`, {
        runtimeId: this.data.key,
      });
    }
    if (isNotRespondingError(error)) throw error;
    throw error;
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
    if (this.data.stale) {
      try {
        await this.host.loader.refreshHeader(this.data);
      } catch (error) {
        this.fail(error);
      }
    }
  }

  children(): Promise<readonly ProviderNode[]> {
    if (!this.childrenPromise || this.data.children === undefined) {
      const promise = this.loadChildren();
      this.childrenPromise = promise;
      promise.catch(() => {
        if (this.childrenPromise === promise) this.childrenPromise = undefined;
      });
    }
    return this.childrenPromise;
  }

  private async loadChildren(): Promise<readonly ProviderNode[]> {
    await this.fresh();
    const data = this.data;
    try {
      if (this.isApplication && data.app.bulk === 'none') await this.host.ensureBulk(data);
      if (data.children === undefined) await this.host.loader.loadChildren(data);
    } catch (error) {
      this.fail(error);
    }
    const out: AtspiNode[] = [];
    for (const key of data.children ?? []) {
      const child = this.host.store.get(key);
      if (child && !child.invalid) out.push(this.host.nodeFor(child));
    }
    return out;
  }

  private context(): PatternContext {
    const parent = this.data.parentKey ? this.host.store.get(this.data.parentKey) : undefined;
    return {
      data: this.data,
      calls: this.host.calls,
      isSecure: this.isSecure,
      memo: this.memo,
      windowManager: this.host.windowManager,
      parent,
      isApplication: this.isApplication,
    };
  }

  /** Entries may be password inputs by attribute: learn that before deciding which attributes exist. */
  private async learnSecurity(): Promise<void> {
    const data = this.data;
    const entryLike = data.role === ATSPI_ROLE.Entry || data.role === ATSPI_ROLE.Text;
    if (entryLike && data.objectAttributes === undefined && hasInterface(data, 'Text')) {
      const ctx: AttributeContext = { data, calls: this.host.calls, isSecure: false, memo: this.memo };
      try {
        await readObjectAttributes(ctx);
      } catch (error) {
        this.fail(error);
      }
    }
  }

  private applicationSpecs(): AttributeSpec[] {
    const info = this.data.app.processInfo;
    const specs: AttributeSpec[] = [];
    const add = (name: string, value: string | number | undefined) => {
      if (value === undefined) return;
      const uiValue = typeof value === 'number' ? uiInteger(value) : uiString(value);
      specs.push({ namespace: 'control', name, read: () => Promise.resolve(uiValue) });
    };
    add(A.ProcessId, this.data.app.processId);
    add(A.ProcessName, info?.processName);
    add(A.ExecutablePath, info?.executablePath);
    add(A.CommandLine, info?.commandLine);
    add(A.UserName, info?.userName);
    add(A.StartTime, info?.startTime);
    add(A.Architecture, info?.architecture);
    return specs;
  }

  private async specs(): Promise<AttributeSpec[]> {
    await this.fresh();
    await this.learnSecurity();
    const ctx = this.context();
    const extra = this.isApplication ? this.applicationSpecs() : [];
    const specs = attributeSpecs(ctx, extra);
    if (this.isApplication) {
      const role = specs.find((s) => s.namespace === 'control' && s.name === A.Role);
      if (role) role.read = () => Promise.resolve(uiString('Application'));
    }
    return specs.map((spec) => ({
      ...spec,
      read: async () => {
        try {
          return await spec.read();
        } catch (error) {
          return this.fail(error);
        }
      },
    }));
  }

  async attributes(): Promise<readonly ProviderAttribute[]> {
    return toProviderAttributes(await this.specs());
  }

  async readAllAttributes(): Promise<readonly AttributeEntry[]> {
    const specs = await this.specs();
    const results = await Promise.allSettled(specs.map((spec) => spec.read()));
    const out: AttributeEntry[] = [];
    for (let i = 0; i < specs.length; i++) {
      const result = results[i] as PromiseSettledResult<AttributeEntry['value']>;
      const spec = specs[i] as AttributeSpec;
      if (result.status === 'fulfilled') {
        out.push({ namespace: spec.namespace, name: spec.name, value: result.value });
      } else {
        const error = result.reason as unknown;
        if (error instanceof InspectorError && (error.code === 'stale-node' || error.code === 'not-responding')) {
          throw error;
        }
        // An attribute the element cannot deliver (method missing, refused) is left out.
      }
    }
    return out;
  }

  async supportedPatterns(): Promise<readonly string[]> {
    await this.fresh();
    await this.learnSecurity();
    return supportedPatterns(this.context());
  }

  async performAction(request: ActionRequest): Promise<void> {
    await this.fresh();
    await this.learnSecurity();
    try {
      await performAction(this.context(), request);
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

  invalidate(): void {
    this.memo.clear();
    this.childrenPromise = undefined;
    this.data.children = undefined;
    this.data.objectAttributes = undefined;
    if (!this.isApplication || this.data.app.bulk !== 'loading') this.data.stale = true;
  }
}
