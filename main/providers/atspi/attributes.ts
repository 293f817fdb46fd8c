import { AttributeNames as A } from '../../../shared/model/attributes.js';
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
import type { ProviderAttribute } from '../../runtime/provider.js';
import type { AtspiCalls } from './atspi-calls.js';
import { IFACE, isNullRef } from './atspi-calls.js';
import type { NodeData } from './node-data.js';
import { hasInterface, runtimeIdOf } from './node-data.js';
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

export function readExtents(ctx: AttributeContext): Promise<Rect> {
  return memo(ctx, 'extents', () => ctx.calls.getExtents(ctx.data.ref));
}

export function readObjectAttributes(ctx: AttributeContext): Promise<{ [key: string]: string }> {
  return memo(ctx, 'attributes', async () => {
    const attributes = await ctx.calls.getAttributes(ctx.data.ref);
    ctx.data.objectAttributes = attributes;
    return attributes;
  });
}

export function readActions(ctx: AttributeContext): Promise<Array<{ name: string; description: string }>> {
  return memo(ctx, 'actions', () => ctx.calls.getActions(ctx.data.ref));
}

function readTextSelection(ctx: AttributeContext): Promise<{ start: number; end: number; text: string }> {
  return memo(ctx, 'text-selection', async () => {
    const count = await ctx.calls.getNSelections(ctx.data.ref);
    if (count > 0) {
      const [start, end] = await ctx.calls.getTextSelection(ctx.data.ref, 0);
      const text = end > start ? await ctx.calls.getText(ctx.data.ref, start, end) : '';
      return { start, end, text };
    }
    const caret = await ctx.calls.getCaretOffset(ctx.data.ref);
    return { start: caret, end: caret, text: '' };
  });
}

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

/** One attribute of a node as the provider hands it out: a known value or a reader called on demand. */
export interface NodeAttribute extends ProviderAttribute {
  /** The value when it needs no call (header data); undefined otherwise. */
  readonly immediate: UiValue | undefined;
}

/** An attribute read on demand (a call to the application, memoized per node). */
export class AtspiAttribute implements NodeAttribute {
  constructor(
    readonly namespace: Namespace,
    readonly name: string,
    private readonly ctx: AttributeContext,
    private readonly reader: AttributeReader,
    private readonly guard: (error: unknown) => never,
  ) {}

  read(): Promise<UiValue> {
    return this.reader(this.ctx).catch(this.guard);
  }

  get immediate(): UiValue | undefined {
    return undefined;
  }
}

/**
 * An attribute whose value came with the node's header. Immutable, so one instance serves every node with the same
 * name and (shared) value: ten thousand enabled nodes share one `IsEnabled = true`, and its one resolved promise.
 */
export class KnownAttribute implements NodeAttribute {
  private promise: Promise<UiValue> | undefined;

  constructor(
    readonly namespace: Namespace,
    readonly name: string,
    readonly immediate: UiValue,
  ) {}

  read(): Promise<UiValue> {
    return (this.promise ??= Promise.resolve(this.immediate));
  }
}

const sharedKnown = new Map<Namespace, Map<string, Map<UiValue, KnownAttribute>>>();

/** The shared instance for a value that is itself a shared constant (booleans, role names, technology ...). */
function sharedAttribute(namespace: Namespace, name: string, value: UiValue): KnownAttribute {
  let byName = sharedKnown.get(namespace);
  if (!byName) sharedKnown.set(namespace, (byName = new Map()));
  let byValue = byName.get(name);
  if (!byValue) byName.set(name, (byValue = new Map()));
  let attribute = byValue.get(value);
  if (!attribute) byValue.set(value, (attribute = new KnownAttribute(namespace, name, value)));
  return attribute;
}

const readBounds: AttributeReader = async (ctx) => uiRect(await readExtents(ctx));
const readActivationPoint: AttributeReader = async (ctx) => {
  const r = await readExtents(ctx);
  return uiPoint({ x: r.x + Math.floor(r.width / 2), y: r.y + Math.floor(r.height / 2) });
};
const readText: AttributeReader = async (ctx) =>
  uiString(await memo(ctx, 'text', () => ctx.calls.getText(ctx.data.ref, 0, -1)));
const readSelectedText: AttributeReader = async (ctx) => uiString((await readTextSelection(ctx)).text);
const readSelectionStart: AttributeReader = async (ctx) => uiInteger((await readTextSelection(ctx)).start);
const readSelectionEnd: AttributeReader = async (ctx) => uiInteger((await readTextSelection(ctx)).end);
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
const readObjectAttributesValue: AttributeReader = async (ctx) => {
  const attributes = await readObjectAttributes(ctx);
  const out: { [key: string]: UiValue } = {};
  for (const [key, value] of Object.entries(attributes)) out[key] = uiString(value);
  return uiObject(out);
};
const readActionNames: AttributeReader = async (ctx) => uiArray((await readActions(ctx)).map((a) => uiString(a.name)));
const readCharacterCount: AttributeReader = async (ctx) => uiInteger(await ctx.calls.getCharacterCount(ctx.data.ref));
const readCaretOffset: AttributeReader = async (ctx) => uiInteger(await ctx.calls.getCaretOffset(ctx.data.ref));
const readTableRows: AttributeReader = async (ctx) =>
  uiInteger(await ctx.calls.getIntProperty(ctx.data.ref, IFACE.Table, 'NRows'));
const readTableColumns: AttributeReader = async (ctx) =>
  uiInteger(await ctx.calls.getIntProperty(ctx.data.ref, IFACE.Table, 'NColumns'));
const readImageDescription: AttributeReader = async (ctx) =>
  uiString(await ctx.calls.getStringProperty(ctx.data.ref, IFACE.Image, 'ImageDescription'));
const readToolkitName: AttributeReader = async (ctx) => uiString(await ctx.calls.getToolkitName(ctx.data.ref));
const readToolkitVersion: AttributeReader = async (ctx) => uiString(await ctx.calls.getToolkitVersion(ctx.data.ref));

const readStateNames: AttributeReader = (ctx) => Promise.resolve(uiArray(stateNames(ctx.data.states).map(uiString)));
const readInterfaceNames: AttributeReader = (ctx) =>
  Promise.resolve(uiArray(ctx.data.interfaces.map((i) => uiString(i.replace('org.a11y.atspi.', '')))));

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

export interface ExtraAttribute {
  namespace: Namespace;
  name: string;
  value: UiValue;
}

/**
 * The attributes a node has, in a stable order. Which ones exist follows from role, states and interfaces alone;
 * header values come along, the rest is read on demand. Secure nodes get no Text, Value or text-derived attribute.
 */
export function buildAttributes(
  ctx: AttributeContext,
  guard: (error: unknown) => never,
  roleOverride: string | undefined,
  extra: readonly ExtraAttribute[] = [],
): NodeAttribute[] {
  const { data } = ctx;
  const out: NodeAttribute[] = [];
  // Node-specific values get their own instance; shared constants (booleans, role names) the shared one.
  const value = (namespace: Namespace, name: string, v: UiValue) => out.push(new KnownAttribute(namespace, name, v));
  const shared = (namespace: Namespace, name: string, v: UiValue) => out.push(sharedAttribute(namespace, name, v));
  const lazy = (namespace: Namespace, name: string, reader: AttributeReader) =>
    out.push(new AtspiAttribute(namespace, name, ctx, reader, guard));
  const states = data.states;
  const component = hasInterface(data, 'Component');
  const text = hasInterface(data, 'Text');
  const editable = hasInterface(data, 'EditableText');
  const valueIface = hasInterface(data, 'Value');
  const selection = hasInterface(data, 'Selection');
  const secure = ctx.isSecure;
  const nameValue = uiString(data.name);
  const descriptionValue = uiString(data.description);

  value('control', A.RuntimeId, uiString(data.key));
  if (roleOverride) value('control', A.Role, uiString(roleOverride));
  else shared('control', A.Role, roleValue(data.role));
  value('control', A.Name, nameValue);
  value('control', A.Description, descriptionValue);
  if (data.accessibleId) value('control', A.Id, uiString(data.accessibleId));
  shared('control', A.Technology, TECHNOLOGY_VALUE);

  // Component-gated attributes (PlatynUI: only when the Component interface is there).
  if (component) {
    lazy('control', A.Bounds, readBounds);
    lazy('control', A.ActivationPoint, readActivationPoint);
    shared('control', A.IsEnabled, bool(hasState(states, S.Enabled)));
    shared('control', A.IsVisible, bool(hasState(states, S.Visible) && hasState(states, S.Showing)));
    shared('control', A.IsInView, bool(hasState(states, S.Showing)));
    shared('control', A.IsFocused, bool(hasState(states, S.Focused)));
  }
  if (hasState(states, S.Selectable)) shared('control', A.IsSelected, bool(hasState(states, S.Selected)));
  if (hasState(states, S.Expandable)) shared('control', A.IsExpanded, bool(hasState(states, S.Expanded)));
  if (isToggleable(data)) shared('control', A.ToggleState, TOGGLE_VALUES[toggleState(states)] as UiValue);
  if (text || editable) shared('control', A.IsReadOnly, bool(isReadOnly(data)));
  if (text || editable || secure) shared('control', A.IsSecure, bool(secure));

  if (!secure) {
    if (text) {
      lazy('control', A.Text, readText);
      lazy('control', A.SelectedText, readSelectedText);
      lazy('control', A.SelectionStart, readSelectionStart);
      lazy('control', A.SelectionEnd, readSelectionEnd);
    }
    if (valueIface) {
      lazy('control', A.Value, readValue);
      lazy('control', A.MinValue, readMinValue);
      lazy('control', A.MaxValue, readMaxValue);
    }
  }
  if (selection) {
    lazy('control', A.SelectedItems, readSelectedItems);
    shared('control', A.CanSelectMultiple, bool(hasState(states, S.Multiselectable)));
  }
  if (hasState(states, S.Iconified)) shared('control', A.IsMinimized, TRUE);
  for (const item of extra) value(item.namespace, item.name, item.value);

  // Native attributes: native:Role and native:<Interface>.<Property>.
  shared('native', 'Role', nativeRoleValue(data.role));
  value('native', 'Accessible.Name', nameValue);
  value('native', 'Accessible.Description', descriptionValue);
  if (data.accessibleId) value('native', 'Accessible.AccessibleId', uiString(data.accessibleId));
  value('native', 'Accessible.ChildCount', uiInteger(data.children?.length ?? data.childCount));
  lazy('native', 'Accessible.States', readStateNames);
  lazy('native', 'Accessible.Interfaces', readInterfaceNames);
  lazy('native', 'Accessible.Attributes', readObjectAttributesValue);
  if (component) lazy('native', 'Component.Extents', readBounds);
  if (hasInterface(data, 'Action')) lazy('native', 'Action.Names', readActionNames);
  if (!secure && text) {
    lazy('native', 'Text.CharacterCount', readCharacterCount);
    lazy('native', 'Text.CaretOffset', readCaretOffset);
  }
  if (!secure && valueIface) lazy('native', 'Value.MinimumIncrement', readMinimumIncrement);
  if (selection) lazy('native', 'Selection.NSelectedChildren', readNSelectedChildren);
  if (hasInterface(data, 'Table')) {
    lazy('native', 'Table.NRows', readTableRows);
    lazy('native', 'Table.NColumns', readTableColumns);
  }
  if (hasInterface(data, 'Image')) lazy('native', 'Image.ImageDescription', readImageDescription);
  if (hasInterface(data, 'Application')) {
    lazy('native', 'Application.ToolkitName', readToolkitName);
    lazy('native', 'Application.Version', readToolkitVersion);
  }
  return out;
}
