import type { AttributeEntry } from '../../shared/model/attributes.js';
import { AttributeNames, SECRET_ATTRIBUTE_NAMES, withDerivedAliases } from '../../shared/model/attributes.js';
import {
  composeAttributes,
  isOwnAttributeName,
  needsPatterns,
  OWN_ATTRIBUTE_NAMES,
  ownAttribute,
  type NodeFacts,
} from '../core/node-attributes.js';
import { InspectorError } from '../../shared/model/errors.js';
import type { Namespace } from '../../shared/model/namespaces.js';
import type { UiValue } from '../../shared/model/values.js';
import { uiString } from '../../shared/model/values.js';
import type { ActionRequest, ProviderAttribute, ProviderNode } from '../core/provider.js';

/** Placeholder of an entry whose value is still being read (replaced before the entry is handed out). */
const NO_VALUE: UiValue = uiString('');

const nameSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** The names as a set, made once per list (a walk asks every node for the same list). */
function nameSet(names: readonly string[]): ReadonlySet<string> {
  let set = nameSets.get(names);
  if (!set) nameSets.set(names, (set = new Set(names)));
  return set;
}

const BOUNDS_ALIAS = /\.(X|Y|Width|Height)$/;
const aliasLists = new WeakMap<readonly string[], boolean>();

/** Whether a list names a bounds alias (`Bounds.X` ...), answered once per long list (a walk asks every node). */
function namesAlias(names: readonly string[]): boolean {
  if (names.length <= 2) return names.some((name) => BOUNDS_ALIAS.test(name));
  let alias = aliasLists.get(names);
  if (alias === undefined) aliasLists.set(names, (alias = names.some((name) => BOUNDS_ALIAS.test(name))));
  return alias;
}

/** What a node needs from the runtime that owns it. */
export interface NodeOwner {
  adopt(source: ProviderNode, parent: RuntimeNode, technology: string): RuntimeNode;
  countFetched(nodes: number): void;
  /** The node dropped its cached data (and its children list when `children`): caches of the tree learn of it. */
  invalidated(node: RuntimeNode, children: boolean): void;
}

/**
 * A node as the runtime serves it: wraps a provider node, caches its children and attributes until invalidated,
 * adds the runtime's own attributes (RuntimeId, Technology, SupportedPatterns, the derived aliases) and keeps secret
 * values out. `revision` grows with every invalidation, so an action on a node that changed since it was shown can
 * be refused.
 */
export class RuntimeNode {
  revision = 0;
  private childrenCache: Promise<readonly RuntimeNode[]> | undefined;
  private resolvedChildren: readonly RuntimeNode[] | undefined;
  /** resolvedChildren is the answer of childrenCache (not a list from before the last invalidation). */
  private childrenCurrent = false;
  private attributesCache: Promise<readonly AttributeEntry[]> | undefined;
  private resolvedAttributes: readonly AttributeEntry[] | undefined;
  private attributeList: Promise<readonly ProviderAttribute[]> | undefined;
  /** Values read one by one (made on the first read: most nodes of a large tree never need one). */
  private valueCache: Map<string, Promise<UiValue>> | undefined;
  private patternsCache: Promise<readonly string[]> | undefined;
  private removed = false;
  private idSettled = false;

  constructor(
    private readonly owner: NodeOwner,
    readonly source: ProviderNode,
    readonly parent: RuntimeNode | undefined,
    readonly technology: string,
  ) {}

  get runtimeId(): string {
    return this.source.runtimeId;
  }
  get namespace(): Namespace {
    return this.source.namespace;
  }
  get role(): string {
    return this.source.role;
  }
  get name(): string {
    return this.source.name;
  }
  /** The developer id as known now; see loadId() for the definitive one. */
  get id(): string | undefined {
    return this.source.id || undefined;
  }

  /** The definitive developer id (providers may defer ids until asked: ProviderNode.loadId). */
  async loadId(): Promise<string | undefined> {
    const revision = this.revision;
    if (this.source.loadId) await this.source.loadId();
    if (revision === this.revision) this.idSettled = true;
    return this.id;
  }

  /** Every attribute of this node's application will be read (ProviderNode.expectAllAttributes). */
  expectAllAttributes(): void {
    this.source.expectAllAttributes?.();
  }

  /** The provider may defer this node's id until loadId() (ProviderNode.loadId). */
  get defersId(): boolean {
    return this.source.loadId !== undefined;
  }

  /**
   * Marks the id definitive without a call: for a node the provider held below a node whose loadId() resolved
   * after it was held (ProviderNode.loadId makes those definitive too).
   */
  markIdDefinitive(): void {
    this.idSettled = true;
  }

  /**
   * The id is definitive: loadId() resolved since the last invalidation, the provider says so (idLoaded), or it never
   * defers ids.
   */
  get idDefinitive(): boolean {
    return this.idSettled || this.source.loadId === undefined || this.source.idLoaded === true;
  }
  get isSecure(): boolean {
    return this.source.isSecure;
  }
  get isRemoved(): boolean {
    return this.removed;
  }

  /** Children already fetched, or undefined when they were not asked for yet (no fetch happens here). */
  get cachedChildren(): readonly RuntimeNode[] | undefined {
    return this.resolvedChildren;
  }

  children(): Promise<readonly RuntimeNode[]> {
    if (!this.childrenCache) {
      const pending = this.source.children().then((sources) => {
        const children = this.adoptChildren(sources);
        if (this.childrenCache === pending) {
          this.resolvedChildren = children;
          this.childrenCurrent = true;
        }
        return children;
      });
      pending.catch(() => {
        if (this.childrenCache === pending) this.childrenCache = undefined;
      });
      this.childrenCache = pending;
    }
    return this.childrenCache;
  }

  /**
   * Children known without asking anyone: fetched since the last invalidation, or held by the provider already.
   * (resolvedChildren outlives an invalidation, so the next fetch keeps the same nodes for the same children; it is
   * not an answer then.)
   */
  peekChildren(): readonly RuntimeNode[] | undefined {
    if (this.childrenCache) return this.childrenCurrent ? this.resolvedChildren : undefined;
    const sources = this.source.peekChildren?.();
    if (!sources) return undefined;
    const children = this.adoptChildren(sources);
    this.resolvedChildren = children;
    this.childrenCurrent = true;
    this.childrenCache = Promise.resolve(children);
    return children;
  }

  private adoptChildren(sources: readonly ProviderNode[]): readonly RuntimeNode[] {
    if (!this.resolvedChildren?.length) {
      const adopted = sources.map((source) => this.owner.adopt(source, this, this.technology));
      this.owner.countFetched(adopted.length);
      return adopted;
    }
    // A child marked removed (a whole-tree invalidation drops every node) is never handed out again.
    const previous = new Map(
      (this.resolvedChildren ?? []).filter((child) => !child.isRemoved).map((child) => [child.runtimeId, child]),
    );
    const children = sources.map(
      (source) => previous.get(source.runtimeId) ?? this.owner.adopt(source, this, this.technology),
    );
    this.owner.countFetched(children.filter((child) => !previous.has(child.runtimeId)).length);
    return children;
  }

  supportedPatterns(): Promise<readonly string[]> {
    this.patternsCache ??= this.source.supportedPatterns();
    return this.patternsCache;
  }

  /** What supportedPatterns() answers, when the provider knows it without a call (no promise); else undefined. */
  peekSupportedPatterns(): readonly string[] | undefined {
    return this.source.peekSupportedPatterns?.();
  }

  /** Every attribute: the provider's, the runtime's own, and the derived aliases. Secret values never appear. */
  attributes(): Promise<readonly AttributeEntry[]> {
    if (!this.attributesCache) {
      const pending = this.readAttributes();
      pending.then(
        (entries) => {
          if (this.attributesCache === pending) this.resolvedAttributes = entries;
        },
        () => {
          if (this.attributesCache === pending) this.attributesCache = undefined;
        },
      );
      this.attributesCache = pending;
    }
    return this.attributesCache;
  }

  /**
   * attributes() for a caller that reads them once (a streamed snapshot): what is read is not kept, here or at the
   * provider (releaseReadValues), unless it was held already.
   */
  async attributesOnce(): Promise<readonly AttributeEntry[]> {
    if (this.resolvedAttributes) return this.resolvedAttributes;
    if (this.attributesCache) return this.attributesCache;
    try {
      return await this.readAttributes();
    } finally {
      this.releaseReadValues();
    }
  }

  /** Drops the provider's values read for this node (ProviderNode.releaseReadValues); header data stays. */
  releaseReadValues(): void {
    this.valueCache = undefined;
    this.attributeList = undefined;
    this.source.releaseReadValues?.();
  }

  async attribute(namespace: Namespace, name: string): Promise<AttributeEntry | undefined> {
    const entries = await this.attributes();
    return entries.find((entry) => entry.namespace === namespace && entry.name === name);
  }

  /**
   * The attributes with this local name in any namespace, reading only those: a query that tests `@IsEnabled` on
   * every button must not read every attribute of every button (each can be a round trip to the application).
   * Answers exactly what attributes() would hold for that name.
   */
  async attributesNamed(localName: string): Promise<readonly AttributeEntry[]> {
    if (this.resolvedAttributes) return this.resolvedAttributes.filter((entry) => entry.name === localName);
    const alias = /^(.+)\.(X|Y|Width|Height)$/.exec(localName);
    if (alias) {
      const base = await this.attributesNamed(alias[1]!);
      return withDerivedAliases(base).filter((entry) => entry.name === localName && entry.derived);
    }
    if (this.source.loadId) await this.source.loadId();
    const listed = await this.attributeObjects();
    const secret = this.isSecure && SECRET_ATTRIBUTE_NAMES.has(localName);
    const matching = listed.filter(
      (attribute) => attribute.name === localName && !(secret && attribute.namespace === 'control'),
    );
    const entries = await this.entriesOf(matching);
    const providedControl = matching.some((attribute) => attribute.namespace === 'control');
    if (!providedControl) {
      const own = await this.ownAttribute(localName);
      if (own) entries.unshift(own);
    }
    return entries;
  }

  /**
   * What attributes() holds under the local names that `wanted` keeps (for any namespace the provider lists them in,
   * or the runtime's own), read by name (attributesNamed): what is not wanted is not read. Derived aliases are left
   * out, and so is a name whose read fails.
   */
  async attributesWhere(wanted: (namespace: Namespace, name: string) => boolean): Promise<AttributeEntry[]> {
    if (this.source.loadId) await this.source.loadId();
    const names = new Set<string>();
    for (const attribute of await this.attributeObjects())
      if (wanted(attribute.namespace, attribute.name)) names.add(attribute.name);
    for (const name of OWN_ATTRIBUTE_NAMES) if (wanted('control', name)) names.add(name);
    const found = await Promise.all(
      [...names].map((name) => this.attributesNamed(name).catch((): readonly AttributeEntry[] => [])),
    );
    return found.flat();
  }

  /**
   * What attributesNamed would answer for each of these local names, in that order, when everything is held: the
   * id is definitive, the provider hands out its attribute list and every matching value without a call (peek);
   * undefined when anything would have to be asked for (then attributesNamed, which reads). No promise per value.
   */
  peekAttributesNamed(localNames: readonly string[]): AttributeEntry[] | undefined {
    const out: AttributeEntry[] = [];
    if (this.resolvedAttributes) {
      for (const localName of localNames)
        for (const entry of this.resolvedAttributes) if (entry.name === localName) out.push(entry);
      return out;
    }
    if (!this.idDefinitive) return undefined;
    if (namesAlias(localNames)) return undefined;
    const listed = this.source.peekAttributes?.(nameSet(localNames));
    if (!listed) return undefined;
    for (const localName of localNames) {
      const secret = this.isSecure && SECRET_ATTRIBUTE_NAMES.has(localName);
      let providedControl = false;
      const first = out.length;
      for (const attribute of listed) {
        if (attribute.name !== localName || (secret && attribute.namespace === 'control')) continue;
        const value = attribute.peek?.();
        if (value === undefined) return undefined;
        if (attribute.namespace === 'control') providedControl = true;
        out.push({ namespace: attribute.namespace, name: attribute.name, value });
      }
      if (!providedControl) {
        const own = this.heldOwnAttribute(localName);
        if (own === null) return undefined;
        if (own) out.splice(first, 0, own);
      }
    }
    return out;
  }

  /** ownAttribute when it needs no call: the entry, undefined when there is none, null when it must be read. */
  private heldOwnAttribute(name: string): AttributeEntry | undefined | null {
    if (name === AttributeNames.SupportedPatterns) return null;
    // Most names asked for are no own attribute: no facts made for them (a check asks every node for several).
    return isOwnAttributeName(name) ? ownAttribute(name, this.facts(this.id), []) : undefined;
  }

  /** The provider's attribute list: the one it holds now (peekAttributes), else asked for once until invalidated. */
  private attributeObjects(): readonly ProviderAttribute[] | Promise<readonly ProviderAttribute[]> {
    return this.source.peekAttributes?.() ?? (this.attributeList ??= this.source.attributes());
  }

  /** The entries of these attributes in order: held values as they are (peek), one promise only for the rest. */
  private entriesOf(attributes: readonly ProviderAttribute[]): AttributeEntry[] | Promise<AttributeEntry[]> {
    const entries: AttributeEntry[] = [];
    let reads: Array<Promise<void>> | undefined;
    for (const attribute of attributes) {
      const entry: AttributeEntry = { namespace: attribute.namespace, name: attribute.name, value: NO_VALUE };
      entries.push(entry);
      const held = attribute.peek?.();
      if (held !== undefined) entry.value = held;
      else (reads ??= []).push(this.readOne(attribute).then((value) => void (entry.value = value)));
    }
    return reads ? Promise.all(reads).then(() => entries) : entries;
  }

  private readOne(attribute: ProviderAttribute): Promise<UiValue> {
    const key = `${attribute.namespace}:${attribute.name}`;
    const cache = (this.valueCache ??= new Map());
    let value = cache.get(key);
    if (!value) {
      value = attribute.read();
      cache.set(key, value);
      value.catch(() => cache.delete(key));
    }
    return value;
  }

  /** What the runtime knows of the node besides the provider's attributes. */
  private facts(id: string | undefined): NodeFacts {
    return {
      runtimeId: this.runtimeId,
      name: this.name,
      id,
      technology: this.technology,
      isSecure: this.isSecure,
    };
  }

  /** The attributes the runtime adds when the provider does not (see readAttributes). */
  private async ownAttribute(name: string): Promise<AttributeEntry | undefined> {
    const id = name === AttributeNames.Id ? await this.loadId() : this.id;
    const patterns = name === AttributeNames.SupportedPatterns ? await this.supportedPatterns() : [];
    return ownAttribute(name, this.facts(id), patterns);
  }

  private async readAttributes(): Promise<readonly AttributeEntry[]> {
    if (this.source.loadId && this.source.idLoaded !== true) await this.source.loadId();
    const secure = this.isSecure;
    let provided: readonly AttributeEntry[];
    if (this.source.readAllAttributes) {
      provided = await this.source.readAllAttributes();
    } else {
      const attributes = await this.attributeObjects();
      const readable = attributes.filter(
        (attribute) => !(secure && attribute.namespace === 'control' && SECRET_ATTRIBUTE_NAMES.has(attribute.name)),
      );
      provided = await this.entriesOf(readable);
    }
    const patterns = needsPatterns(provided)
      ? (!this.patternsCache && this.peekSupportedPatterns()) || (await this.supportedPatterns())
      : [];
    return composeAttributes(provided, this.facts(this.id), patterns);
  }

  /** Runs a pattern action; refuses when the node changed since the caller saw `expectedRevision`. */
  async performAction(request: ActionRequest, expectedRevision?: number): Promise<void> {
    if (this.removed) {
      throw new InspectorError('stale-node', `${this.describe()} no longer exists`, { runtimeId: this.runtimeId });
    }
    if (expectedRevision !== undefined && expectedRevision !== this.revision) {
      throw new InspectorError(
        'stale-node',
        `${this.describe()} changed since it was shown (revision ${expectedRevision}, now ${this.revision}); refresh it and try again`,
        { runtimeId: this.runtimeId },
      );
    }
    if (!(await this.source.isValid())) {
      this.removed = true;
      throw new InspectorError('stale-node', `${this.describe()} is no longer valid`, { runtimeId: this.runtimeId });
    }
    await this.source.performAction(request);
  }

  /**
   * Discards cached data: the next access reads fresh values from the provider. `source: false` keeps the
   * provider's own data (for changes the provider announced itself, which it has already applied).
   */
  invalidate(options: { children?: boolean; source?: boolean } = {}): void {
    this.revision++;
    this.attributesCache = undefined;
    this.resolvedAttributes = undefined;
    this.attributeList = undefined;
    this.valueCache = undefined;
    this.patternsCache = undefined;
    this.idSettled = false;
    if (options.source !== false) this.source.invalidate();
    if (options.children !== false) {
      this.childrenCache = undefined;
      this.childrenCurrent = false;
    }
    this.owner.invalidated(this, options.children !== false);
  }

  markRemoved(): void {
    this.removed = true;
    this.revision++;
  }

  describe(): string {
    const role = this.namespace === 'control' ? this.role : `${this.namespace}:${this.role}`;
    return this.name ? `${role} "${this.name}"` : role;
  }
}
