import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AttributeEntry } from '../../../shared/model/attributes.js';
import { AttributeNames, SECRET_ATTRIBUTE_NAMES, isAliasName } from '../../../shared/model/attributes.js';
import { InspectorError } from '../../../shared/model/errors.js';
import { attributeKey, qualifiedRole, type Namespace } from '../../../shared/model/namespaces.js';
import type { UiValue } from '../../../shared/model/values.js';
import { uiArray, uiBool, uiPoint, uiRect, uiString } from '../../../shared/model/values.js';
import type { SnapshotNode } from '../../../shared/snapshot/model.js';
import {
  tableChildren,
  tableNamespace,
  tableRole,
  tableToNodes,
  type SnapshotReadOptions,
  type SnapshotTable,
} from '../../../shared/snapshot/table.js';
import { decodeSnapshotBytes } from '../../../shared/snapshot/utf8.js';
import { readSnapshotTableWith, type SaxesParserClass } from '../../../shared/snapshot/read-table.js';
import type {
  ActionRequest,
  NodeDescription,
  ProviderAttribute,
  ProviderDescriptor,
  ProviderEvent,
  ProviderEventListener,
  ProviderNode,
  ProviderStatus,
  ProviderUiEvent,
  ProviderUiEventListener,
  UiTreeProvider,
} from '../../core/provider.js';
import type { UiEventType } from '../../../shared/model/ui-events.js';
import { DEFAULT_MOCK_TREE } from './default-tree.js';
import { MOCK_DESCRIPTOR, type MockFileOptions } from './descriptor.js';

export { MOCK_DESCRIPTOR, mockFileOption, mockFileReadOptions } from './descriptor.js';

/** Attributes the runtime owns: a mock file may carry them (a snapshot does), the provider never serves them. */
const RUNTIME_OWNED: ReadonlySet<string> = new Set([AttributeNames.RuntimeId, AttributeNames.SupportedPatterns]);

export interface MockDocument {
  /** Top-level nodes: applications with windows, or windows. */
  roots: SnapshotNode[];
  /** The Desktop element's attributes when the file is a desktop snapshot. */
  desktop: SnapshotNode | undefined;
}

export type { MockFileOptions } from './descriptor.js';

/** A mock tree as read: the table, and where its top-level nodes are. */
export interface MockTable {
  table: SnapshotTable;
  /** The top-level nodes (the children of a desktop snapshot's `<Desktop>`), in document order. */
  roots: readonly number[];
  /** The `<Desktop>` node of a desktop snapshot. */
  desktop: number | undefined;
}

/** The option that raises the depth limit, named in the error. */
const MAX_DEPTH_HINT = '--mock-max-depth';

/** Tables read in this process, by file, size and modification time: the platform and the provider share one. */
const readTables = new Map<string, MockTable>();

/** saxes, loaded only for a file the snapshot reader declines (loading it costs a command tens of milliseconds). */
function loadSaxes(): SaxesParserClass {
  return (createRequire(import.meta.url)('saxes') as typeof import('saxes')).SaxesParser;
}

function readSnapshotTable(xml: string, source: string, options: SnapshotReadOptions): SnapshotTable {
  return readSnapshotTableWith(loadSaxes, xml, source, options);
}

/**
 * Reads a mock tree in the snapshot format (the embedded default without a file): UTF-8 (anything else is an error
 * with its position), nested at most `maxDepth` levels, every RuntimeId once. A desktop snapshot (a single
 * `<Desktop>` element) gives its children.
 */
export function loadMockTable(mockFile: string | undefined, options: MockFileOptions = {}): MockTable {
  const readOptions = {
    maxDepthHint: MAX_DEPTH_HINT,
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
  };
  if (options.text) return locateRoots(readSnapshotTable(options.text.xml, options.text.source, readOptions));
  if (!mockFile) return locateRoots(readSnapshotTable(DEFAULT_MOCK_TREE, 'embedded mock tree', readOptions));
  let bytes: Buffer;
  let key: string;
  try {
    const stat = statSync(mockFile);
    key = `${mockFile}\0${stat.size}\0${stat.mtimeMs}\0${options.maxDepth ?? ''}`;
    const known = readTables.get(key);
    if (known) return known;
    bytes = readFileSync(mockFile);
  } catch (error) {
    throw new InspectorError('usage', `cannot read mock file ${mockFile}: ${(error as Error).message}`);
  }
  const table = locateRoots(readSnapshotTable(decodeSnapshotBytes(bytes, mockFile), mockFile, readOptions));
  readTables.set(key, table);
  return table;
}

function locateRoots(table: SnapshotTable): MockTable {
  const top = tableChildren(table, -1);
  const [first] = top;
  if (
    top.length === 1 &&
    first !== undefined &&
    tableNamespace(table, first) === 'control' &&
    tableRole(table, first) === 'Desktop'
  ) {
    return { table, roots: tableChildren(table, first), desktop: first };
  }
  return { table, roots: top, desktop: undefined };
}

/** Loads a mock tree as nodes (see loadMockTable). */
export function loadMockDocument(mockFile: string | undefined, options: MockFileOptions = {}): MockDocument {
  const { table, desktop } = loadMockTable(mockFile, options);
  const nodes = tableToNodes(table);
  if (desktop !== undefined) return { roots: nodes[0]!.children, desktop: nodes[0] };
  return { roots: nodes, desktop: undefined };
}

function attributeValue(spec: SnapshotNode, name: string): UiValue | undefined {
  return spec.attributes.find((entry) => entry.namespace === 'control' && entry.name === name)?.value;
}

function stringAttribute(spec: SnapshotNode, name: string): string | undefined {
  const value = attributeValue(spec, name);
  return value?.type === 'String' ? value.value : undefined;
}

/** What a mock node makes of the attributes its element has in the file. */
export interface MockAttributes {
  id: string | undefined;
  isSecure: boolean;
  patterns: string[];
  scriptedFailure: string | undefined;
  /** The attributes the provider serves: without those the runtime owns, derived aliases or secrets. */
  values: AttributeEntry[];
}

export function readMockAttributes(attributes: readonly AttributeEntry[]): MockAttributes {
  const control = (name: string) =>
    attributes.find((entry) => entry.namespace === 'control' && entry.name === name)?.value;
  const id = control(AttributeNames.Id);
  const secure = control(AttributeNames.IsSecure);
  const isSecure = secure?.type === 'Bool' && secure.value;
  const patterns = control(AttributeNames.SupportedPatterns);
  const failure = attributes.find((entry) => entry.namespace === 'native' && entry.name === 'ScriptedFailure');
  return {
    id: (id?.type === 'String' && id.value) || undefined,
    isSecure,
    patterns:
      patterns?.type === 'Array' ? patterns.value.flatMap((item) => (item.type === 'String' ? [item.value] : [])) : [],
    scriptedFailure: failure?.value.type === 'String' ? failure.value.value : undefined,
    values: attributes.filter(
      (entry) =>
        !(entry.namespace === 'control' && (RUNTIME_OWNED.has(entry.name) || isAliasName(entry.name))) &&
        !(isSecure && entry.namespace === 'control' && SECRET_ATTRIBUTE_NAMES.has(entry.name)),
    ),
  };
}

/** The name a mock node has: its Name attribute when that is a string, else empty. */
export function mockNodeName(values: readonly AttributeEntry[]): string {
  const value = values.find((entry) => entry.namespace === 'control' && entry.name === AttributeNames.Name);
  return value?.value.type === 'String' ? value.value.value : '';
}

/** One node of the mock tree; state changes made by actions are kept here and announced as events. */
export class MockNode implements ProviderNode {
  readonly runtimeId: string;
  readonly namespace: Namespace;
  readonly role: string;
  readonly id: string | undefined;
  readonly isSecure: boolean;
  readonly children_: MockNode[] = [];
  private values: AttributeEntry[];
  private readonly patterns: string[];
  private readonly scriptedFailure: string | undefined;
  removed = false;

  constructor(
    private readonly provider: MockProvider,
    spec: SnapshotNode,
    runtimeId: string,
    readonly parent: MockNode | undefined,
  ) {
    this.runtimeId = runtimeId;
    this.namespace = spec.namespace;
    this.role = spec.role;
    const read = readMockAttributes(spec.attributes);
    this.id = read.id;
    this.isSecure = read.isSecure;
    this.patterns = read.patterns;
    this.scriptedFailure = read.scriptedFailure;
    this.values = read.values;
  }

  get name(): string {
    return mockNodeName(this.values);
  }

  children(): Promise<readonly ProviderNode[]> {
    return this.provider.respond(() => this.children_.filter((child) => !child.removed));
  }

  attributes(): Promise<readonly ProviderAttribute[]> {
    return this.provider.respond(() =>
      this.values.map((entry) => ({
        namespace: entry.namespace,
        name: entry.name,
        read: () => this.provider.respond(() => this.current(entry.namespace, entry.name) ?? entry.value),
      })),
    );
  }

  readAllAttributes(): Promise<readonly AttributeEntry[]> {
    return this.provider.respond(() => this.values.map((entry) => ({ ...entry })));
  }

  supportedPatterns(): Promise<readonly string[]> {
    return this.provider.respond(() => [...this.patterns]);
  }

  isValid(): Promise<boolean> {
    return Promise.resolve(!this.removed);
  }

  invalidate(): void {
    // The mock holds its state in memory: there is nothing stale to drop.
  }

  current(namespace: Namespace, name: string): UiValue | undefined {
    return this.values.find((entry) => entry.namespace === namespace && entry.name === name)?.value;
  }

  set(name: string, value: UiValue): void {
    const index = this.values.findIndex((entry) => entry.namespace === 'control' && entry.name === name);
    if (index >= 0) this.values[index] = { namespace: 'control', name, value };
    else this.values.push({ namespace: 'control', name, value });
  }

  private require(pattern: string, action: string): void {
    if (!this.patterns.includes(pattern)) {
      throw new InspectorError(
        'unsupported',
        `${this.role} "${this.name}" does not support ${pattern}, so it cannot ${action}`,
        { runtimeId: this.runtimeId },
      );
    }
  }

  /**
   * A container that provides its selection (SelectionProvider) announces it as a whole, as GTK 3's tree view does
   * for rows it made no accessible for: SelectedItems and selection-changed on the container, nothing on the items.
   */
  private selectOnly(item: MockNode): void {
    for (const child of this.children_) child.set(AttributeNames.IsSelected, uiBool(child === item));
    this.set(AttributeNames.SelectedItems, uiArray([uiString(item.runtimeId)]));
    this.provider.emit({ kind: 'NodeUpdated', runtimeId: this.runtimeId, attributes: [AttributeNames.SelectedItems] });
    this.provider.emitUi({ type: 'selection-changed', runtimeId: this.runtimeId });
  }

  async performAction(request: ActionRequest): Promise<void> {
    if (this.removed) throw new InspectorError('stale-node', `${this.runtimeId} no longer exists`);
    const action = request.action;
    if (this.scriptedFailure === action) {
      this.provider.log.push(`${action} ${this.runtimeId} failed (scripted)`);
      throw new InspectorError('action-failed', `${action} failed on ${this.role} "${this.name}" (scripted failure)`, {
        runtimeId: this.runtimeId,
      });
    }
    const changed: string[] = [];
    switch (action) {
      case 'focus':
        this.require('Focusable', 'take focus');
        this.provider.clearFocus();
        this.set(AttributeNames.IsFocused, uiBool(true));
        changed.push(AttributeNames.IsFocused);
        this.provider.emitUi({ type: 'focus', runtimeId: this.runtimeId });
        break;
      case 'activate':
        this.require('Activatable', 'be activated');
        break;
      case 'toggle': {
        this.require('Toggleable', 'toggle');
        const state = this.current('control', AttributeNames.ToggleState);
        const on = state?.type === 'String' && state.value === 'On';
        this.set(AttributeNames.ToggleState, uiString(on ? 'Off' : 'On'));
        changed.push(AttributeNames.ToggleState);
        this.provider.emitUi({ type: 'state-changed', runtimeId: this.runtimeId, state: 'checked', value: !on });
        break;
      }
      case 'expand':
      case 'collapse':
        this.require('Expandable', action);
        this.set(AttributeNames.IsExpanded, uiBool(action === 'expand'));
        changed.push(AttributeNames.IsExpanded);
        this.provider.emitUi({
          type: 'state-changed',
          runtimeId: this.runtimeId,
          state: 'expanded',
          value: action === 'expand',
        });
        break;
      case 'scrollIntoView':
        this.require('ScrollItem', 'scroll into view');
        this.set(AttributeNames.IsInView, uiBool(true));
        changed.push(AttributeNames.IsInView);
        break;
      case 'select':
        this.require('Selectable', 'be selected');
        if (this.parent?.patterns.includes('SelectionProvider')) {
          this.parent.selectOnly(this);
          this.provider.log.push(`select ${this.runtimeId}`);
          return;
        }
        for (const sibling of this.parent?.children_ ?? []) {
          if (sibling !== this && sibling.current('control', AttributeNames.IsSelected)) {
            sibling.set(AttributeNames.IsSelected, uiBool(false));
            this.provider.emit({ kind: 'NodeUpdated', runtimeId: sibling.runtimeId, attributes: ['IsSelected'] });
            this.provider.emitUi({
              type: 'state-changed',
              runtimeId: sibling.runtimeId,
              state: 'selected',
              value: false,
            });
          }
        }
        this.set(AttributeNames.IsSelected, uiBool(true));
        changed.push(AttributeNames.IsSelected);
        this.provider.emitUi({ type: 'state-changed', runtimeId: this.runtimeId, state: 'selected', value: true });
        if (this.parent) this.provider.emitUi({ type: 'selection-changed', runtimeId: this.parent.runtimeId });
        break;
      case 'setValue':
        if (this.patterns.includes('TextEditable')) {
          const before = this.current('control', AttributeNames.Text);
          const text = String(request.value ?? '');
          this.set(AttributeNames.Text, uiString(text));
          changed.push(AttributeNames.Text);
          const length = before?.type === 'String' ? before.value.length : 0;
          const runtimeId = this.runtimeId;
          if (length > 0) {
            this.provider.emitUi({ type: 'text-changed', runtimeId, change: 'delete', position: 0, length, text: '' });
          }
          this.provider.emitUi({
            type: 'text-changed',
            runtimeId,
            change: 'insert',
            position: 0,
            length: text.length,
            text,
          });
        } else {
          this.require('StatefulValue', 'take a value');
          this.set(AttributeNames.Value, uiString(String(request.value ?? '')));
          changed.push(AttributeNames.Value);
          this.provider.emitUi({
            type: 'value-changed',
            runtimeId: this.runtimeId,
            value: String(request.value ?? ''),
          });
        }
        break;
      case 'move':
      case 'resize': {
        this.require(action === 'move' ? 'Movable' : 'Resizable', action);
        const bounds = this.current('control', AttributeNames.Bounds);
        if (bounds?.type !== 'Rect') throw new InspectorError('action-failed', `${this.runtimeId} has no bounds`);
        const next =
          action === 'move'
            ? { ...bounds.value, x: request.x ?? bounds.value.x, y: request.y ?? bounds.value.y }
            : {
                ...bounds.value,
                width: request.width ?? bounds.value.width,
                height: request.height ?? bounds.value.height,
              };
        this.set(AttributeNames.Bounds, uiRect(next));
        this.set(
          AttributeNames.ActivationPoint,
          uiPoint({ x: next.x + Math.floor(next.width / 2), y: next.y + Math.floor(next.height / 2) }),
        );
        changed.push(AttributeNames.Bounds, AttributeNames.ActivationPoint);
        this.provider.emitUi({ type: 'bounds-changed', runtimeId: this.runtimeId, bounds: next });
        break;
      }
      case 'minimize':
      case 'maximize':
      case 'restore':
        this.require(`${action[0]!.toUpperCase()}${action.slice(1)}able`, action);
        if (action !== 'restore') {
          this.set(action === 'minimize' ? AttributeNames.IsMinimized : AttributeNames.IsMaximized, uiBool(true));
        } else {
          this.set(AttributeNames.IsMinimized, uiBool(false));
          this.set(AttributeNames.IsMaximized, uiBool(false));
        }
        changed.push(AttributeNames.IsMinimized, AttributeNames.IsMaximized);
        break;
      case 'close':
        this.require('Closeable', 'close');
        this.removed = true;
        this.provider.log.push(`close ${this.runtimeId}`);
        this.provider.emit({ kind: 'NodeRemoved', runtimeId: this.runtimeId, parentRuntimeId: this.parent?.runtimeId });
        if (this.role === 'Window') this.provider.emitUi({ type: 'window-closed', runtimeId: this.runtimeId });
        if (this.parent) {
          this.provider.emitUi({
            type: 'children-changed',
            runtimeId: this.parent.runtimeId,
            change: 'removed',
            index: this.parent.children_.indexOf(this),
            child: this.runtimeId,
          });
        }
        return;
      default:
        throw new InspectorError('unsupported', `the mock does not know the action "${action}"`);
    }
    this.provider.log.push(`${action} ${this.runtimeId}${request.value !== undefined ? ` ${request.value}` : ''}`);
    this.provider.emit({ kind: 'NodeUpdated', runtimeId: this.runtimeId, attributes: changed });
  }
}

/**
 * The runtime ids of nodes the file gives none: `mock:<role>-<n>`, counted per role in document order, skipping the
 * ids the file gives (so a generated id never repeats a given one).
 */
export class MockRuntimeIds {
  private readonly counters = new Map<string, number>();
  constructor(private readonly given: ReadonlySet<string>) {}

  next(role: string): string {
    const key = role.toLowerCase();
    for (;;) {
      const next = (this.counters.get(key) ?? 0) + 1;
      this.counters.set(key, next);
      const id = `mock:${key}-${next}`;
      if (!this.given.has(id)) return id;
    }
  }
}

/** Deterministic, opt-in provider over a tree read from snapshot XML (the embedded default or `--mock-file`). */
export class MockProvider implements UiTreeProvider {
  /** The mock's descriptor, naming the roles and attributes its tree holds (its catalog). */
  readonly descriptor: ProviderDescriptor;
  readonly log: string[] = [];
  private readonly listeners = new Set<ProviderEventListener>();
  private readonly uiWatchers = new Set<{ types: ReadonlySet<UiEventType>; listener: ProviderUiEventListener }>();
  private readonly rootNodes: MockNode[];
  private readonly all: MockNode[] = [];
  private readonly byId = new Map<string, MockNode>();
  private shutDown = false;

  constructor(document: MockDocument) {
    const given = new Set<string>();
    const elements = new Set<string>();
    const attributes = new Set<string>();
    const specs: SnapshotNode[] = [...document.roots];
    for (let spec = specs.pop(); spec; spec = specs.pop()) {
      elements.add(qualifiedRole(spec.namespace, spec.role));
      for (const entry of spec.attributes) attributes.add(attributeKey(entry.namespace, entry.name));
      const id = stringAttribute(spec, AttributeNames.RuntimeId);
      if (id !== undefined) given.add(id);
      specs.push(...spec.children);
    }
    this.ids = new MockRuntimeIds(given);
    this.rootNodes = this.build(document.roots);
    this.descriptor = { ...MOCK_DESCRIPTOR, names: { elements: [...elements], attributes: [...attributes] } };
  }

  private readonly ids: MockRuntimeIds;

  /** The nodes for these specs and everything below them, in document order, without recursion (any depth). */
  private build(roots: readonly SnapshotNode[]): MockNode[] {
    const built: MockNode[] = [];
    const pending: Array<[SnapshotNode, MockNode | undefined]> = roots.map((spec) => [spec, undefined]);
    pending.reverse();
    for (let next = pending.pop(); next; next = pending.pop()) {
      const [spec, parent] = next;
      const given = stringAttribute(spec, AttributeNames.RuntimeId);
      const node = new MockNode(this, spec, given ?? this.ids.next(spec.role), parent);
      this.all.push(node);
      this.byId.set(node.runtimeId, node);
      if (parent) parent.children_.push(node);
      else built.push(node);
      for (let i = spec.children.length - 1; i >= 0; i--) pending.push([spec.children[i]!, node]);
    }
    return built;
  }

  /** Answers asynchronously, as a real provider does, and refuses once shut down. */
  respond<T>(produce: () => T): Promise<T> {
    if (this.shutDown)
      return Promise.reject(new InspectorError('provider-unavailable', 'the mock provider was shut down'));
    return Promise.resolve().then(produce);
  }

  roots(): Promise<readonly ProviderNode[]> {
    return this.respond(() => this.rootNodes.filter((node) => !node.removed));
  }

  find(runtimeId: string): MockNode | undefined {
    return this.byId.get(runtimeId);
  }

  clearFocus(): void {
    for (const node of this.all) {
      const focused = node.current('control', AttributeNames.IsFocused);
      if (focused?.type === 'Bool' && focused.value) {
        node.set(AttributeNames.IsFocused, uiBool(false));
        this.emit({ kind: 'NodeUpdated', runtimeId: node.runtimeId, attributes: [AttributeNames.IsFocused] });
        this.emitUi({ type: 'state-changed', runtimeId: node.runtimeId, state: 'focused', value: false });
      }
    }
  }

  subscribe(listener: ProviderEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: ProviderEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  /** Typed events of the mock's own changes (made by actions). */
  watchUiEvents(types: ReadonlySet<UiEventType>, listener: ProviderUiEventListener): () => void {
    const watcher = { types: new Set(types), listener };
    this.uiWatchers.add(watcher);
    return () => this.uiWatchers.delete(watcher);
  }

  emitUi(event: ProviderUiEvent): void {
    for (const watcher of [...this.uiWatchers]) if (watcher.types.has(event.type)) watcher.listener(event);
  }

  describeNode(runtimeId: string): Promise<NodeDescription | undefined> {
    return this.respond(() => {
      const node = this.byId.get(runtimeId);
      if (!node || node.removed) return undefined;
      return { namespace: node.namespace, role: node.role, name: node.name, isSecure: node.isSecure };
    });
  }

  status(): ProviderStatus {
    return this.shutDown
      ? { state: 'unavailable', message: 'shut down' }
      : { state: 'ready', details: { nodes: this.all.length } };
  }

  shutdown(): Promise<void> {
    this.shutDown = true;
    this.listeners.clear();
    return Promise.resolve();
  }
}
