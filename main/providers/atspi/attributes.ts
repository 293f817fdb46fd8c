import { AttributeNames as A, SECRET_ATTRIBUTE_NAMES } from '../../../shared/model/attributes.js';
import { InspectorError } from '../../../shared/model/errors.js';
import type { Namespace } from '../../../shared/model/namespaces.js';
import type { Rect, UiValue } from '../../../shared/model/values.js';
import {
  uiArray,
  uiBool,
  uiInteger,
  uiNumber,
  uiObject,
  uiPoint,
  uiRect,
  uiString,
} from '../../../shared/model/values.js';
import type { ProviderAttribute } from '../../core/provider.js';
import type { AtspiCalls } from './atspi-calls.js';
import { IFACE, isNullRef } from './atspi-calls.js';
import type { NodeData } from './node-data.js';
import { INTERFACE_BIT, interfaceMask, runtimeIdOf } from './node-data.js';
import { readRelations, readTableHeaders, relationsObject, relationValue } from './relations.js';
import { atspiRoleName, isToggleRole, mapRole } from './roles.js';
import { hasState, S, stateNames } from './states.js';

/**
 * Attribute reading per interface (PlatynUI's AT-SPI tables): which attributes a node has follows from its role,
 * states and interfaces alone (no call); values are read lazily and memoized until the node is invalidated.
 * Secure nodes never have Text, Value or any text-derived attribute: their contents are never read.
 */

export const TECHNOLOGY = 'AT-SPI2';

export interface AttributeContext {
  data: NodeData;
  calls: AtspiCalls;
  isSecure: boolean;
  /** Memo of values read for this node; cleared by invalidate(). */
  memo: Map<string, Promise<unknown>>;
}

function memo<T>(ctx: AttributeContext, key: string, read: () => Promise<T>): Promise<T> {
  let promise = ctx.memo.get(key) as Promise<T> | undefined;
  if (!promise) {
    promise = read();
    ctx.memo.set(key, promise);
    // A failed read is not remembered: the next access tries again.
    promise.catch(() => ctx.memo.delete(key));
  }
  return promise;
}

/**
 * A read several attributes share (one call, or a few in a row), memoized per node under its key. `peek` gives its
 * result without a call or a promise where the node holds it already.
 */
export interface SharedRead<T> {
  readonly key: string;
  readonly read: (ctx: AttributeContext) => Promise<T>;
  readonly peek?: (ctx: AttributeContext) => T | undefined;
}

function shared<T>(ctx: AttributeContext, source: SharedRead<T>): Promise<T> {
  return memo(ctx, source.key, () => source.read(ctx));
}

const EXTENTS: SharedRead<Rect> = { key: 'extents', read: (ctx) => ctx.calls.getExtents(ctx.data.ref) };

export function readExtents(ctx: AttributeContext): Promise<Rect> {
  return shared(ctx, EXTENTS);
}

/** The object attributes the bulk load brought, taken once (a later read asks the application). */
function takeLoadedAttributes(data: NodeData): { [key: string]: string } | undefined {
  const attributes = data.loadedAttributes;
  if (attributes === undefined) return undefined;
  data.loadedAttributes = undefined;
  data.objectAttributes = attributes;
  return attributes;
}

const OBJECT_ATTRIBUTES: SharedRead<{ [key: string]: string }> = {
  key: 'attributes',
  read: (ctx) => {
    const loaded = takeLoadedAttributes(ctx.data);
    if (loaded) return Promise.resolve(loaded);
    return ctx.calls.getAttributes(ctx.data.ref).then((attributes) => (ctx.data.objectAttributes = attributes));
  },
  peek: (ctx) => {
    if (ctx.memo.has('attributes')) return undefined;
    const loaded = takeLoadedAttributes(ctx.data);
    if (loaded) ctx.memo.set('attributes', Promise.resolve(loaded));
    return loaded;
  },
};

export function readObjectAttributes(ctx: AttributeContext): Promise<{ [key: string]: string }> {
  return shared(ctx, OBJECT_ATTRIBUTES);
}

const ACTIONS: SharedRead<Array<{ name: string; description: string }>> = {
  key: 'actions',
  read: (ctx) => ctx.calls.getActions(ctx.data.ref),
};

export function readActions(ctx: AttributeContext): Promise<Array<{ name: string; description: string }>> {
  return shared(ctx, ACTIONS);
}

/** Character count and caret, read together once: an empty text needs no further text call. */
const TEXT_STATE: SharedRead<{ characterCount: number; caretOffset: number }> = {
  key: 'text-state',
  read: (ctx) => {
    // What the bulk load brought serves the first read (a later one asks the application).
    const loaded = ctx.data.loadedTextState;
    if (loaded) {
      ctx.data.loadedTextState = undefined;
      return Promise.resolve(loaded);
    }
    return ctx.calls.getTextState(ctx.data.ref);
  },
};

/**
 * Before every attribute of a node is read: the reads that others build on go out first (the text state, which
 * spares the text calls of an empty text).
 */
export function beginReadingAll(ctx: AttributeContext): void {
  if (!ctx.isSecure && (interfaceMask(ctx.data) & INTERFACE_BIT.Text) !== 0) void shared(ctx, TEXT_STATE);
}

const TEXT_SELECTION: SharedRead<{ start: number; end: number; text: string }> = {
  key: 'text-selection',
  read: async (ctx) => {
    const { characterCount, caretOffset } = await shared(ctx, TEXT_STATE);
    const count = characterCount > 0 ? await ctx.calls.getNSelections(ctx.data.ref) : 0;
    if (count > 0) {
      const [start, end] = await ctx.calls.getTextSelection(ctx.data.ref, 0);
      const text = end > start ? await ctx.calls.getText(ctx.data.ref, start, end) : '';
      return { start, end, text };
    }
    return { start: caretOffset, end: caretOffset, text: '' };
  },
};

const TEXT: SharedRead<string> = {
  key: 'text',
  read: async (ctx) => {
    // Text alone is one call; with the text state known (or on its way) an empty text needs none.
    const state = ctx.memo.get(TEXT_STATE.key) as Promise<{ characterCount: number }> | undefined;
    if (state && (await state).characterCount === 0) return '';
    return ctx.calls.getText(ctx.data.ref, 0, -1);
  },
};

const TEXT_ATTRIBUTES: SharedRead<{ [name: string]: string }> = {
  key: 'text-attributes',
  read: (ctx) => ctx.calls.getTextAttributes(ctx.data.ref, 0),
};

const RELATIONS: SharedRead<ReadonlyMap<string, string[]>> = {
  key: 'relations',
  read: (ctx) => readRelations(ctx.calls, ctx.data.ref),
};

function numeric(value: number): UiValue {
  return Number.isInteger(value) ? uiInteger(value) : uiNumber(value);
}

function toggleState(states: readonly number[]): string {
  if (hasState(states, S.Indeterminate)) return 'Indeterminate';
  return hasState(states, S.Checked) || hasState(states, S.Pressed) ? 'On' : 'Off';
}

/** True when the node has a ToggleState (checkable state or a toggling role). */
export function isToggleable(data: NodeData): boolean {
  return hasState(data.states, S.Checkable) || isToggleRole(data.role);
}

export function isReadOnly(data: NodeData): boolean {
  return hasState(data.states, S.ReadOnly) || !hasState(data.states, S.Editable);
}

/** Reads one attribute value of a node; module-level functions, so building a node's list allocates no closures. */
export type AttributeReader = (ctx: AttributeContext) => Promise<UiValue>;

/** Makes a held value from the node's data (module-level functions: no closure per node). */
export type HeldValue = (data: NodeData) => UiValue;

/** One attribute of a node as the provider hands it out. */
export interface NodeAttribute extends ProviderAttribute {
  peek(): UiValue | undefined;
  /**
   * read() without the mapping of its failure to the node's errors (a gone element to stale-node): for a caller
   * reading many attributes at once that maps the few failures itself (one promise less per attribute).
   */
  readUnmapped?(): Promise<UiValue>;
}

/** The node an attribute belongs to, as its attributes see it. */
export interface AttributeOwner extends AttributeContext {
  /**
   * Grows whenever the node's attribute list is dropped (an event changed its data, or it was invalidated): attribute
   * objects of an older list no longer serve held values.
   */
  readonly attributeGeneration: number;
  /** The node's current attribute list (a stale header is read again first; throws stale-node for a gone node). */
  currentAttributes(): Promise<readonly NodeAttribute[]>;
}

/** An attribute made from a shared read (`make` is pure: no call, no promise). */
export interface Derived<T = unknown> {
  readonly source: SharedRead<T>;
  readonly make: (raw: T) => UiValue;
}

/** An attribute read on demand (a call to the application, memoized per node); never held, so peek() says so. */
export class AtspiAttribute implements NodeAttribute {
  constructor(
    readonly namespace: Namespace,
    readonly name: string,
    private readonly ctx: AttributeContext,
    private readonly reader: AttributeReader | undefined,
    private readonly guard: (error: unknown) => never,
    /** Set for an attribute made from a shared read (then `reader` is unused). */
    readonly derived?: Derived,
  ) {}

  read(): Promise<UiValue> {
    return this.readUnmapped().catch(this.guard);
  }

  readUnmapped(): Promise<UiValue> {
    const derived = this.derived;
    if (derived) return shared(this.ctx, derived.source).then(derived.make);
    return (this.reader as AttributeReader)(this.ctx);
  }

  peek(): UiValue | undefined {
    return undefined;
  }
}

/** A read that failed, in place of its value in readAll's answer; `unmapped`: its error is not yet the node's. */
export class FailedRead {
  constructor(
    readonly error: unknown,
    readonly unmapped: boolean,
  ) {}
}

function make(derived: Derived, raw: unknown): UiValue | FailedRead {
  try {
    return derived.make(raw);
  } catch (error) {
    return new FailedRead(error, true);
  }
}

/**
 * The values of a node's attributes in their order: held ones as they are, those made from a shared read (extents,
 * relations, text state ...) from that read once, the rest read one by one; a FailedRead in place of a value that
 * could not be read. One promise for the node (none when every value is at hand), not one per attribute.
 */
export function readAll(
  ctx: AttributeContext,
  list: readonly NodeAttribute[],
): Array<UiValue | FailedRead> | Promise<Array<UiValue | FailedRead>> {
  const out = new Array<UiValue | FailedRead>(list.length);
  // Attributes made from shared reads still to come: their index, and the index of their read in `reads`.
  let waiting: number[] | undefined;
  let sources: Array<SharedRead<unknown>> | undefined;
  const reads: Array<Promise<unknown>> = [];
  /** For each read: the attribute it is the value of (-1 for a shared read). */
  const readFor: number[] = [];
  for (let i = 0; i < list.length; i++) {
    const attribute = list[i] as NodeAttribute;
    const held = attribute.peek();
    if (held !== undefined) {
      out[i] = held;
      continue;
    }
    const derived = attribute instanceof AtspiAttribute ? attribute.derived : undefined;
    if (!derived) {
      reads.push(attribute.readUnmapped ? attribute.readUnmapped() : attribute.read());
      readFor.push(i);
      continue;
    }
    const peeked = derived.source.peek?.(ctx);
    if (peeked !== undefined) {
      out[i] = make(derived, peeked);
      continue;
    }
    sources ??= [];
    let at = sources.indexOf(derived.source);
    if (at < 0) {
      at = sources.push(derived.source) - 1;
      reads.push(shared(ctx, derived.source));
      readFor.push(-1 - at);
    }
    (waiting ??= []).push(i);
  }
  if (reads.length === 0) return out;
  // Each read settles into its place; one promise for the node (Promise.allSettled made a result object and an
  // iterator step per read, ten of them per node of a snapshot).
  const sourceValues = new Array<unknown>(sources?.length ?? 0);
  return new Promise((resolve) => {
    let pending = reads.length;
    const settled = (): void => {
      if (--pending > 0) return;
      for (const i of waiting ?? []) {
        const derived = (list[i] as AtspiAttribute).derived as Derived;
        const value = sourceValues[(sources as Array<SharedRead<unknown>>).indexOf(derived.source)];
        out[i] = value instanceof FailedRead ? value : make(derived, value);
      }
      resolve(out);
    };
    for (let r = 0; r < reads.length; r++) {
      const i = readFor[r] as number;
      (reads[r] as Promise<unknown>).then(
        (value) => {
          if (i < 0) sourceValues[-1 - i] = value;
          else out[i] = value as UiValue;
          settled();
        },
        (reason: unknown) => {
          if (i < 0) sourceValues[-1 - i] = new FailedRead(reason, true);
          else out[i] = new FailedRead(reason, (list[i] as NodeAttribute).readUnmapped !== undefined);
          settled();
        },
      );
    }
  });
}

/**
 * An attribute whose value the provider holds (header data: role, name, states ...). peek() serves it without a
 * promise while the node is usable and its data unchanged since the list was built; otherwise it says undefined and
 * read() refreshes (a stale header is read again, the value taken from the node's current list). The value is made
 * on first use; booleans, role names and the like are shared constants.
 */
export class HeldAttribute implements NodeAttribute {
  private value: UiValue | undefined;

  constructor(
    readonly namespace: Namespace,
    readonly name: string,
    private readonly owner: AttributeOwner,
    private readonly generation: number,
    private readonly make: HeldValue | undefined,
    value?: UiValue,
  ) {
    this.value = value;
  }

  peek(): UiValue | undefined {
    const owner = this.owner;
    const data = owner.data;
    if (owner.attributeGeneration !== this.generation || data.stale || data.invalid || data.app.gone) return undefined;
    // Never a secret, whatever list it came from (held attributes are header data, but the contract is kept here).
    if (SECRET_ATTRIBUTE_NAMES.has(this.name) && owner.isSecure) return undefined;
    return (this.value ??= (this.make as HeldValue)(data));
  }

  read(): Promise<UiValue> {
    const held = this.peek();
    if (held !== undefined) return Promise.resolve(held);
    return this.owner.currentAttributes().then((list) => {
      const current = list.find((entry) => entry.namespace === this.namespace && entry.name === this.name);
      if (!current || current === this) {
        throw new InspectorError('unsupported', `${this.name} is not available on ${this.owner.data.key}`, {
          runtimeId: this.owner.data.key,
        });
      }
      return current.read();
    });
  }
}

const derive = <T>(source: SharedRead<T>, make: (raw: T) => UiValue): Derived => ({ source, make }) as Derived;
const bounds = derive(EXTENTS, uiRect);
const activationPoint = derive(EXTENTS, (r) =>
  uiPoint({ x: r.x + Math.floor(r.width / 2), y: r.y + Math.floor(r.height / 2) }),
);
const textValue = derive(TEXT, uiString);
const selectedText = derive(TEXT_SELECTION, (selection) => uiString(selection.text));
const selectionStart = derive(TEXT_SELECTION, (selection) => uiInteger(selection.start));
const selectionEnd = derive(TEXT_SELECTION, (selection) => uiInteger(selection.end));
const readValue: AttributeReader = async (ctx) =>
  numeric(await ctx.calls.getValueProperty(ctx.data.ref, 'CurrentValue'));
const readMinValue: AttributeReader = async (ctx) =>
  numeric(await ctx.calls.getValueProperty(ctx.data.ref, 'MinimumValue'));
const readMaxValue: AttributeReader = async (ctx) =>
  numeric(await ctx.calls.getValueProperty(ctx.data.ref, 'MaximumValue'));
const readMinimumIncrement: AttributeReader = async (ctx) =>
  numeric(await ctx.calls.getValueProperty(ctx.data.ref, 'MinimumIncrement'));
const readSelectedItems: AttributeReader = async (ctx) => {
  const { calls, data } = ctx;
  const count = await calls.getNSelectedChildren(data.ref);
  const items = await Promise.all(
    Array.from({ length: Math.min(count, 1000) }, (_, i) => calls.getSelectedChild(data.ref, i)),
  );
  return uiArray(items.filter((item) => !isNullRef(item)).map((item) => uiString(runtimeIdOf(item))));
};
const readNSelectedChildren: AttributeReader = async (ctx) =>
  uiInteger(await ctx.calls.getNSelectedChildren(ctx.data.ref));
const stringMap = (map: { [key: string]: string }): UiValue => {
  const out: { [key: string]: UiValue } = {};
  for (const key in map) out[key] = uiString(map[key] as string);
  return uiObject(out);
};
const objectAttributes = derive(OBJECT_ATTRIBUTES, stringMap);
const actionNames = derive(ACTIONS, (actions) => uiArray(actions.map((a) => uiString(a.name))));
const characterCount = derive(TEXT_STATE, (state) => uiInteger(state.characterCount));
const textAttributes = derive(TEXT_ATTRIBUTES, stringMap);
const caretOffset = derive(TEXT_STATE, (state) => uiInteger(state.caretOffset));
const readTableRows: AttributeReader = async (ctx) =>
  uiInteger(await ctx.calls.getIntProperty(ctx.data.ref, IFACE.Table, 'NRows'));
const readTableColumns: AttributeReader = async (ctx) =>
  uiInteger(await ctx.calls.getIntProperty(ctx.data.ref, IFACE.Table, 'NColumns'));
const labelledBy = derive(RELATIONS, (relations) => relationValue(relations, 'labelled-by'));
const labelFor = derive(RELATIONS, (relations) => relationValue(relations, 'label-for'));
const describedBy = derive(RELATIONS, (relations) => relationValue(relations, 'described-by'));
const relationsValue = derive(RELATIONS, relationsObject);
const readColumnHeaders: AttributeReader = async (ctx) =>
  readTableHeaders(
    ctx.calls,
    ctx.data.ref,
    'Column',
    await ctx.calls.getIntProperty(ctx.data.ref, IFACE.Table, 'NColumns'),
  );
const readRowHeaders: AttributeReader = async (ctx) =>
  readTableHeaders(ctx.calls, ctx.data.ref, 'Row', await ctx.calls.getIntProperty(ctx.data.ref, IFACE.Table, 'NRows'));
const readImageDescription: AttributeReader = async (ctx) =>
  uiString(await ctx.calls.getStringProperty(ctx.data.ref, IFACE.Image, 'ImageDescription'));
const readToolkitName: AttributeReader = async (ctx) => uiString(await ctx.calls.getToolkitName(ctx.data.ref));
const readToolkitVersion: AttributeReader = async (ctx) => uiString(await ctx.calls.getToolkitVersion(ctx.data.ref));

const roleValues = new Map<number, UiValue>();
const nativeRoleValues = new Map<number, UiValue>();
function roleValue(role: number): UiValue {
  let value = roleValues.get(role);
  if (!value) roleValues.set(role, (value = uiString(mapRole(role).role)));
  return value;
}
function nativeRoleValue(role: number): UiValue {
  let value = nativeRoleValues.get(role);
  if (!value) nativeRoleValues.set(role, (value = uiString(atspiRoleName(role))));
  return value;
}

const TRUE = uiBool(true);
const FALSE = uiBool(false);
const bool = (value: boolean) => (value ? TRUE : FALSE);
const TECHNOLOGY_VALUE = uiString(TECHNOLOGY);
const TOGGLE_VALUES: { [state: string]: UiValue } = {
  On: uiString('On'),
  Off: uiString('Off'),
  Indeterminate: uiString('Indeterminate'),
};

const heldRuntimeId: HeldValue = (d) => uiString(d.key);
const heldRole: HeldValue = (d) => roleValue(d.role);
const heldNativeRole: HeldValue = (d) => nativeRoleValue(d.role);
const heldName: HeldValue = (d) => uiString(d.name);
const heldDescription: HeldValue = (d) => uiString(d.description);
const heldId: HeldValue = (d) => uiString(d.accessibleId);
const heldChildCount: HeldValue = (d) => uiInteger(d.children?.length ?? d.childCount);
const heldEnabled: HeldValue = (d) => bool(hasState(d.states, S.Enabled));
const heldVisible: HeldValue = (d) => bool(hasState(d.states, S.Visible) && hasState(d.states, S.Showing));
const heldInView: HeldValue = (d) => bool(hasState(d.states, S.Showing));
const heldFocused: HeldValue = (d) => bool(hasState(d.states, S.Focused));
const heldSelected: HeldValue = (d) => bool(hasState(d.states, S.Selected));
const heldExpanded: HeldValue = (d) => bool(hasState(d.states, S.Expanded));
const heldToggleState: HeldValue = (d) => TOGGLE_VALUES[toggleState(d.states)] as UiValue;
const heldReadOnly: HeldValue = (d) => bool(isReadOnly(d));
const heldMultiselectable: HeldValue = (d) => bool(hasState(d.states, S.Multiselectable));
/**
 * State and interface lists as values, one per distinct set: the nodes of a page share a few dozen sets, and a check
 * reads both lists of every node. At most this many state sets are kept; interface lists are kept per interned list
 * (internInterfaces bounds those).
 */
const MAX_STATE_LISTS = 1000;
const stateLists = new Map<number, UiValue>();
const interfaceLists = new WeakMap<readonly string[], UiValue>();

const heldStateNames: HeldValue = (d) => {
  // AT-SPI defines fewer than 64 states: the second word stays far below 2^21, so the key is exact.
  const key = (d.states[1] ?? 0) * 0x1_0000_0000 + (d.states[0] ?? 0);
  let value = stateLists.get(key);
  if (!value) {
    value = uiArray(stateNames(d.states).map(uiString));
    if (stateLists.size < MAX_STATE_LISTS) stateLists.set(key, value);
  }
  return value;
};
// NodeData's interface lists are interned (one array per distinct set), so the array itself is the key.
const heldInterfaceNames: HeldValue = (d) => {
  let value = interfaceLists.get(d.interfaces);
  if (!value) {
    value = uiArray(d.interfaces.map((i) => uiString(i.replace('org.a11y.atspi.', ''))));
    interfaceLists.set(d.interfaces, value);
  }
  return value;
};

export interface ExtraAttribute {
  namespace: Namespace;
  name: string;
  value: UiValue;
}

/**
 * The attributes a node has, in a stable order. Which ones exist follows from role, states and interfaces alone;
 * header values come along, the rest is read on demand. Secure nodes get no Text, Value or text-derived attribute.
 * With `names`, only the attributes with these local names are made.
 */
export function buildAttributes(
  owner: AttributeOwner,
  guard: (error: unknown) => never,
  roleOverride: string | undefined,
  extra: readonly ExtraAttribute[] = [],
  names?: ReadonlySet<string>,
): NodeAttribute[] {
  const data = owner.data;
  const generation = owner.attributeGeneration;
  const out: NodeAttribute[] = [];
  const held = (namespace: Namespace, name: string, make: HeldValue) => {
    if (!names || names.has(name)) out.push(new HeldAttribute(namespace, name, owner, generation, make));
  };
  const fixed = (namespace: Namespace, name: string, v: UiValue) => {
    if (!names || names.has(name)) out.push(new HeldAttribute(namespace, name, owner, generation, undefined, v));
  };
  const lazy = (namespace: Namespace, name: string, reader: AttributeReader | Derived) => {
    if (!names || names.has(name)) {
      const derived = typeof reader === 'function' ? undefined : reader;
      out.push(
        new AtspiAttribute(namespace, name, owner, derived ? undefined : (reader as AttributeReader), guard, derived),
      );
    }
  };
  const states = data.states;
  const mask = interfaceMask(data);
  const component = (mask & INTERFACE_BIT.Component) !== 0;
  const text = (mask & INTERFACE_BIT.Text) !== 0;
  const editable = (mask & INTERFACE_BIT.EditableText) !== 0;
  const valueIface = (mask & INTERFACE_BIT.Value) !== 0;
  const selection = (mask & INTERFACE_BIT.Selection) !== 0;
  const secure = owner.isSecure;

  held('control', A.RuntimeId, heldRuntimeId);
  if (roleOverride) fixed('control', A.Role, uiString(roleOverride));
  else held('control', A.Role, heldRole);
  held('control', A.Name, heldName);
  held('control', A.Description, heldDescription);
  if (data.accessibleId) held('control', A.Id, heldId);
  fixed('control', A.Technology, TECHNOLOGY_VALUE);

  // Component-gated attributes (PlatynUI: only when the Component interface is there).
  if (component) {
    lazy('control', A.Bounds, bounds);
    lazy('control', A.ActivationPoint, activationPoint);
    held('control', A.IsEnabled, heldEnabled);
    held('control', A.IsVisible, heldVisible);
    held('control', A.IsInView, heldInView);
    held('control', A.IsFocused, heldFocused);
    lazy('control', A.LabelledBy, labelledBy);
    lazy('control', A.LabelFor, labelFor);
    lazy('control', A.DescribedBy, describedBy);
  }
  if (hasState(states, S.Selectable)) held('control', A.IsSelected, heldSelected);
  if (hasState(states, S.Expandable)) held('control', A.IsExpanded, heldExpanded);
  if (isToggleable(data)) held('control', A.ToggleState, heldToggleState);
  if (text || editable) held('control', A.IsReadOnly, heldReadOnly);
  if (text || editable || secure) fixed('control', A.IsSecure, bool(secure));

  if (!secure) {
    if (text) {
      lazy('control', A.Text, textValue);
      lazy('control', A.SelectedText, selectedText);
      lazy('control', A.SelectionStart, selectionStart);
      lazy('control', A.SelectionEnd, selectionEnd);
    }
    if (valueIface) {
      lazy('control', A.Value, readValue);
      lazy('control', A.MinValue, readMinValue);
      lazy('control', A.MaxValue, readMaxValue);
    }
  }
  if (selection) {
    lazy('control', A.SelectedItems, readSelectedItems);
    held('control', A.CanSelectMultiple, heldMultiselectable);
  }
  if (hasState(states, S.Iconified)) fixed('control', A.IsMinimized, TRUE);
  for (const item of extra) fixed(item.namespace, item.name, item.value);

  // Native attributes: native:Role and native:<Interface>.<Property>.
  held('native', 'Role', heldNativeRole);
  held('native', 'Accessible.Name', heldName);
  held('native', 'Accessible.Description', heldDescription);
  if (data.accessibleId) held('native', 'Accessible.AccessibleId', heldId);
  held('native', 'Accessible.ChildCount', heldChildCount);
  held('native', 'Accessible.States', heldStateNames);
  held('native', 'Accessible.Interfaces', heldInterfaceNames);
  lazy('native', 'Accessible.Attributes', objectAttributes);
  if (component) lazy('native', 'Accessible.Relations', relationsValue);
  if (component) lazy('native', 'Component.Extents', bounds);
  if (mask & INTERFACE_BIT.Action) lazy('native', 'Action.Names', actionNames);
  if (!secure && text) {
    lazy('native', 'Text.CharacterCount', characterCount);
    lazy('native', 'Text.CaretOffset', caretOffset);
    lazy('native', 'Text.Attributes', textAttributes);
  }
  if (!secure && valueIface) lazy('native', 'Value.MinimumIncrement', readMinimumIncrement);
  if (selection) lazy('native', 'Selection.NSelectedChildren', readNSelectedChildren);
  if (mask & INTERFACE_BIT.Table) {
    lazy('native', 'Table.NRows', readTableRows);
    lazy('native', 'Table.NColumns', readTableColumns);
    lazy('native', 'Table.ColumnHeaders', readColumnHeaders);
    lazy('native', 'Table.RowHeaders', readRowHeaders);
  }
  if (mask & INTERFACE_BIT.Image) lazy('native', 'Image.ImageDescription', readImageDescription);
  if (mask & INTERFACE_BIT.Application) {
    lazy('native', 'Application.ToolkitName', readToolkitName);
    lazy('native', 'Application.Version', readToolkitVersion);
  }
  return out;
}
