/**
 * An in-memory InspectorApi over a plain tree: what the store tests run against. Mutations (add, remove, rename)
 * emit the events a host would. XPath is a tiny subset (`//Role`, `//*`, `//Role[@Name='x']`, `count(...)`), enough
 * to drive the console store; syntax errors carry a position like the engine's.
 */
import type { AttributeEntry } from '../../shared/model/attributes.js';
import { withDerivedAliases } from '../../shared/model/attributes.js';
import type { Namespace } from '../../shared/model/namespaces.js';
import { patternDefinition } from '../../shared/model/patterns.js';
import type { UiValue } from '../../shared/model/values.js';
import type {
  ActionResult,
  Evaluation,
  HostEvent,
  InspectorApi,
  Locator,
  NodeView,
  PatternView,
  PickStart,
  ResultItem,
  SessionInfo,
} from './types.js';
import { ApiError } from './types.js';

export interface MemoryNode {
  id: string;
  role: string;
  name?: string;
  namespace?: Namespace;
  attributes?: { [name: string]: UiValue };
  patterns?: string[];
  children?: MemoryNode[];
}

interface Entry {
  node: MemoryNode;
  parent: string | undefined;
  revision: number;
}

export class MemoryApi implements InspectorApi {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(event: HostEvent) => void>();
  readonly calls: string[] = [];
  readonly actions: Array<{ runtimeId: string; action: string; args: unknown; revision: number }> = [];
  accessibility: 'on' | 'off' = 'on';
  /** Delay of every answer, to let tests see loading states and races. */
  delayMs = 0;
  /** Delay between streamed batches of results. */
  batchDelayMs = 0;

  constructor(readonly root: MemoryNode) {
    this.index(root, undefined);
  }

  private index(node: MemoryNode, parent: string | undefined): void {
    this.entries.set(node.id, { node, parent, revision: this.entries.get(node.id)?.revision ?? 0 });
    for (const child of node.children ?? []) this.index(child, node.id);
  }

  private async wait(): Promise<void> {
    if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
  }

  private entry(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw new ApiError({ code: 'stale-node', message: `node ${id} no longer exists` });
    return entry;
  }

  view(id: string): NodeView {
    const { node, revision } = this.entry(id);
    return {
      runtimeId: node.id,
      namespace: node.namespace ?? 'control',
      role: node.role,
      name: node.name ?? '',
      hasChildren: (node.children ?? []).length > 0,
      revision,
    };
  }

  emit(event: HostEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  // --- mutations a test performs, with the events a host would send ---
  add(parentId: string, child: MemoryNode, index?: number): void {
    const parent = this.entry(parentId).node;
    parent.children ??= [];
    parent.children.splice(index ?? parent.children.length, 0, child);
    this.index(child, parentId);
    this.emit({ type: 'tree-changed', kind: 'NodeAdded', runtimeId: child.id, parentRuntimeId: parentId });
  }

  /** A new top-level node (an application registering): the event names no parent, as AT-SPI's does. */
  addTopLevel(child: MemoryNode): void {
    this.root.children ??= [];
    this.root.children.push(child);
    this.index(child, this.root.id);
    this.emit({ type: 'tree-changed', kind: 'NodeAdded', runtimeId: child.id });
  }

  remove(id: string): void {
    const { parent } = this.entry(id);
    const parentNode = parent ? this.entry(parent).node : undefined;
    if (parentNode) parentNode.children = (parentNode.children ?? []).filter((c) => c.id !== id);
    const drop = (node: MemoryNode) => {
      this.entries.delete(node.id);
      for (const c of node.children ?? []) drop(c);
    };
    drop(this.entry(id).node);
    this.emit({
      type: 'tree-changed',
      kind: 'NodeRemoved',
      runtimeId: id,
      ...(parent ? { parentRuntimeId: parent } : {}),
    });
  }

  rename(id: string, name: string): void {
    const entry = this.entry(id);
    entry.node.name = name;
    entry.revision++;
    this.emit({
      type: 'tree-changed',
      kind: 'NodeUpdated',
      runtimeId: id,
      ...(entry.parent ? { parentRuntimeId: entry.parent } : {}),
    });
  }

  // --- InspectorApi ---
  async info(): Promise<SessionInfo> {
    await this.wait();
    return {
      desktop: this.view(this.root.id),
      providers: [{ id: 'memory', name: 'In-memory tree', technology: 'Memory', state: 'ready' }],
      accessibility: this.accessibility,
      platform: 'memory',
      features: { pick: true, highlight: true, locators: true, followFocus: true, stop: false },
    };
  }

  async children(runtimeId: string): Promise<NodeView[]> {
    this.calls.push(`children ${runtimeId}`);
    await this.wait();
    return (this.entry(runtimeId).node.children ?? []).map((child) => this.view(child.id));
  }

  async attributes(runtimeId: string): Promise<AttributeEntry[]> {
    this.calls.push(`attributes ${runtimeId}`);
    await this.wait();
    const { node } = this.entry(runtimeId);
    const entries: AttributeEntry[] = [
      { namespace: 'control', name: 'Name', value: { type: 'String', value: node.name ?? '' } },
      { namespace: 'control', name: 'Role', value: { type: 'String', value: node.role } },
    ];
    for (const [name, value] of Object.entries(node.attributes ?? {})) {
      const colon = name.indexOf(':');
      entries.push(
        colon > 0
          ? { namespace: name.slice(0, colon) as Namespace, name: name.slice(colon + 1), value }
          : { namespace: 'control', name, value },
      );
    }
    entries.push({ namespace: 'control', name: 'RuntimeId', value: { type: 'String', value: node.id } });
    return withDerivedAliases(entries);
  }

  async patterns(runtimeId: string): Promise<PatternView[]> {
    await this.wait();
    return (this.entry(runtimeId).node.patterns ?? []).map((name) => ({
      name,
      actions: [...(patternDefinition(name)?.actions ?? [])],
    }));
  }

  async path(runtimeId: string): Promise<NodeView[]> {
    await this.wait();
    const chain: NodeView[] = [];
    for (let id: string | undefined = runtimeId; id; id = this.entry(id).parent) chain.unshift(this.view(id));
    return chain;
  }

  async refresh(runtimeId: string): Promise<void> {
    this.calls.push(`refresh ${runtimeId}`);
    this.entry(runtimeId);
  }

  async performAction(runtimeId: string, action: string, args: unknown, revision: number): Promise<ActionResult> {
    await this.wait();
    const entry = this.entry(runtimeId);
    if (entry.revision !== revision) {
      throw new ApiError({
        code: 'stale-node',
        message: `${entry.node.role} "${entry.node.name ?? ''}" changed since it was shown; refresh it and try again`,
      });
    }
    if (!(entry.node.patterns ?? []).some((p) => p !== 'Element')) {
      throw new ApiError({ code: 'unsupported', message: `${action} is not supported here` });
    }
    this.actions.push({ runtimeId, action, args, revision });
    return { ok: true, message: `${action} done` };
  }

  evaluate(expression: string, onItems: (items: ResultItem[]) => void): Evaluation {
    const started = performance.now();
    let cancelled = false;
    let rejectCancel: ((error: ApiError) => void) | undefined;
    const done = new Promise<{ count: number; ms: number }>((resolve, reject) => {
      rejectCancel = reject;
      void (async () => {
        try {
          await this.wait();
          const items = this.query(expression);
          const batch = 100;
          for (let i = 0; i < items.length; i += batch) {
            if (cancelled) return;
            onItems(items.slice(i, i + batch));
            if (this.batchDelayMs) await new Promise((r) => setTimeout(r, this.batchDelayMs));
          }
          if (cancelled) return;
          resolve({ count: items.length, ms: performance.now() - started });
        } catch (error) {
          reject(error);
        }
      })();
    });
    return {
      done,
      cancel: () => {
        cancelled = true;
        rejectCancel?.(new ApiError({ code: 'cancelled', message: 'evaluation cancelled' }));
      },
    };
  }

  private query(expression: string): ResultItem[] {
    const text = expression.trim();
    const count = /^count\((.*)\)$/.exec(text);
    if (count) {
      return [{ type: 'value', value: { type: 'Integer', value: this.query(count[1]!).length } }];
    }
    const m = /^\/\/([A-Za-z*:]+)(?:\[@Name='([^']*)'\])?$/.exec(text);
    if (!m) {
      const bad = text.search(/[^A-Za-z0-9/*:@\[\]='" ()]/);
      const offset = bad >= 0 ? bad : text.length;
      throw new ApiError({
        code: 'xpath-syntax',
        message: `unexpected input at column ${offset + 1}`,
        position: { line: 1, column: offset + 1, offset },
      });
    }
    const [, role, name] = m;
    const out: ResultItem[] = [];
    const walk = (node: MemoryNode) => {
      for (const child of node.children ?? []) {
        if ((role === '*' || child.role === role) && (name === undefined || child.name === name)) {
          out.push({ type: 'node', node: this.view(child.id) });
        }
        walk(child);
      }
    };
    walk(this.root);
    return out;
  }

  highlighted: string[] = [];
  async highlight(runtimeIds: string[]): Promise<void> {
    this.highlighted = runtimeIds;
  }
  async clearHighlight(): Promise<void> {
    this.highlighted = [];
  }

  picking = false;
  pickStack: string[] = [];
  pickIndex = 0;
  /** Whether the in-memory host "captures" clicks (tests set it). */
  pickClickSelects = false;
  async startPick(): Promise<PickStart> {
    this.picking = true;
    return this.pickClickSelects ? { clickSelects: true } : { clickSelects: false, note: 'no pointer to capture' };
  }
  /** A test moves the "pointer" over a stack of nodes. */
  hover(stack: string[]): void {
    this.pickStack = stack;
    this.pickIndex = 0;
    this.emitHover();
  }
  async cyclePick(delta: number): Promise<void> {
    if (!this.pickStack.length) return;
    this.pickIndex = (this.pickIndex + delta + this.pickStack.length) % this.pickStack.length;
    this.emitHover();
  }
  private emitHover(): void {
    const id = this.pickStack[this.pickIndex];
    this.emit({
      type: 'pick-hover',
      node: id ? this.view(id) : undefined,
      depth: this.pickIndex,
      stackSize: this.pickStack.length,
    });
  }
  async stopPick(accept: boolean): Promise<NodeView | undefined> {
    this.picking = false;
    const id = this.pickStack[this.pickIndex];
    return accept && id ? this.view(id) : undefined;
  }

  followFocus = false;
  async setFollowFocus(on: boolean): Promise<void> {
    this.followFocus = on;
  }

  async enableAccessibility(): Promise<void> {
    this.accessibility = 'on';
  }

  async stopHost(): Promise<void> {
    throw new ApiError({ code: 'unsupported', message: 'the in-memory host cannot be stopped' });
  }

  async locators(runtimeId: string): Promise<Locator[]> {
    const { node } = this.entry(runtimeId);
    return [{ xpath: `//${node.role}[@Name='${node.name ?? ''}']`, score: 1, unique: true }];
  }

  subscribe(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
