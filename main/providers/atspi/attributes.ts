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

export interface AttributeSpec {
  namespace: Namespace;
  name: string;
  read: () => Promise<UiValue>;
}

const now = (value: UiValue) => () => Promise.resolve(value);

/** The attributes a node has, in a stable order. */
export function attributeSpecs(ctx: AttributeContext, extra: readonly AttributeSpec[] = []): AttributeSpec[] {
  const { data, calls } = ctx;
  const ref = data.ref;
  const specs: AttributeSpec[] = [];
  const add = (namespace: Namespace, name: string, read: () => Promise<UiValue>) =>
    specs.push({ namespace, name, read });
  const mapped = mapRole(data.role);
  const states = data.states;
  const component = hasInterface(data, 'Component');
  const text = hasInterface(data, 'Text');
  const editable = hasInterface(data, 'EditableText');

  add('control', A.RuntimeId, now(uiString(data.key)));
  add('control', A.Role, now(uiString(mapped.role)));
  add('control', A.Name, now(uiString(data.name)));
  add('control', A.Description, now(uiString(data.description)));
  if (data.accessibleId) add('control', A.Id, now(uiString(data.accessibleId)));
  add('control', A.Technology, now(uiString(TECHNOLOGY)));

  // Component-gated attributes (PlatynUI: only when the Component interface is there).
  if (component) {
    add('control', A.Bounds, async () => uiRect(await readExtents(ctx)));
    add('control', A.ActivationPoint, async () => {
      const r = await readExtents(ctx);
      return uiPoint({ x: r.x + Math.floor(r.width / 2), y: r.y + Math.floor(r.height / 2) });
    });
    add('control', A.IsEnabled, now(uiBool(hasState(states, S.Enabled))));
    add('control', A.IsVisible, now(uiBool(hasState(states, S.Visible) && hasState(states, S.Showing))));
    add('control', A.IsInView, now(uiBool(hasState(states, S.Showing))));
    add('control', A.IsFocused, now(uiBool(hasState(states, S.Focused))));
  }
  if (hasState(states, S.Selectable)) add('control', A.IsSelected, now(uiBool(hasState(states, S.Selected))));
  if (hasState(states, S.Expandable)) add('control', A.IsExpanded, now(uiBool(hasState(states, S.Expanded))));
  if (isToggleable(data)) add('control', A.ToggleState, now(uiString(toggleState(states))));
  if (text || editable) add('control', A.IsReadOnly, now(uiBool(isReadOnly(data))));
  if (text || editable || ctx.isSecure) add('control', A.IsSecure, now(uiBool(ctx.isSecure)));

  if (!ctx.isSecure) {
    if (text) {
      add('control', A.Text, async () => uiString(await memo(ctx, 'text', () => calls.getText(ref, 0, -1))));
      add('control', A.SelectedText, async () => uiString((await readTextSelection(ctx)).text));
      add('control', A.SelectionStart, async () => uiInteger((await readTextSelection(ctx)).start));
      add('control', A.SelectionEnd, async () => uiInteger((await readTextSelection(ctx)).end));
    }
    if (hasInterface(data, 'Value')) {
      add('control', A.Value, async () => numeric(await calls.getValueProperty(ref, 'CurrentValue')));
      add('control', A.MinValue, async () => numeric(await calls.getValueProperty(ref, 'MinimumValue')));
      add('control', A.MaxValue, async () => numeric(await calls.getValueProperty(ref, 'MaximumValue')));
    }
  }
  if (hasInterface(data, 'Selection')) {
    add('control', A.SelectedItems, async () => {
      const count = await calls.getNSelectedChildren(ref);
      const items = await Promise.all(
        Array.from({ length: Math.min(count, 1000) }, (_, i) => calls.getSelectedChild(ref, i)),
      );
      return uiArray(items.filter((item) => !isNullRef(item)).map((item) => uiString(runtimeIdOf(item))));
    });
    add('control', A.CanSelectMultiple, now(uiBool(hasState(states, S.Multiselectable))));
  }
  if (hasState(states, S.Iconified)) add('control', A.IsMinimized, now(uiBool(true)));
  specs.push(...extra);

  // Native attributes: native:Role and native:<Interface>.<Property>.
  add('native', 'Role', now(uiString(atspiRoleName(data.role))));
  add('native', 'Accessible.Name', now(uiString(data.name)));
  add('native', 'Accessible.Description', now(uiString(data.description)));
  if (data.accessibleId) add('native', 'Accessible.AccessibleId', now(uiString(data.accessibleId)));
  add('native', 'Accessible.ChildCount', now(uiInteger(data.childCount)));
  add('native', 'Accessible.States', now(uiArray(stateNames(states).map(uiString))));
  add(
    'native',
    'Accessible.Interfaces',
    now(uiArray(data.interfaces.map((i) => uiString(i.replace('org.a11y.atspi.', ''))))),
  );
  add('native', 'Accessible.Attributes', async () => {
    const attributes = await readObjectAttributes(ctx);
    const out: { [key: string]: UiValue } = {};
    for (const [key, value] of Object.entries(attributes)) out[key] = uiString(value);
    return uiObject(out);
  });
  if (component) add('native', 'Component.Extents', async () => uiRect(await readExtents(ctx)));
  if (hasInterface(data, 'Action')) {
    add('native', 'Action.Names', async () => uiArray((await readActions(ctx)).map((a) => uiString(a.name))));
  }
  if (!ctx.isSecure && text) {
    add('native', 'Text.CharacterCount', async () => uiInteger(await calls.getCharacterCount(ref)));
    add('native', 'Text.CaretOffset', async () => uiInteger(await calls.getCaretOffset(ref)));
  }
  if (!ctx.isSecure && hasInterface(data, 'Value')) {
    add('native', 'Value.MinimumIncrement', async () => numeric(await calls.getValueProperty(ref, 'MinimumIncrement')));
  }
  if (hasInterface(data, 'Selection')) {
    add('native', 'Selection.NSelectedChildren', async () => uiInteger(await calls.getNSelectedChildren(ref)));
  }
  if (hasInterface(data, 'Table')) {
    add('native', 'Table.NRows', async () => uiInteger(await calls.getIntProperty(ref, IFACE.Table, 'NRows')));
    add('native', 'Table.NColumns', async () => uiInteger(await calls.getIntProperty(ref, IFACE.Table, 'NColumns')));
  }
  if (hasInterface(data, 'Image')) {
    add('native', 'Image.ImageDescription', async () =>
      uiString(await calls.getStringProperty(ref, IFACE.Image, 'ImageDescription')),
    );
  }
  if (hasInterface(data, 'Application')) {
    add('native', 'Application.ToolkitName', async () => uiString(await calls.getToolkitName(ref)));
    add('native', 'Application.Version', async () => uiString(await calls.getToolkitVersion(ref)));
  }
  return specs;
}

export function toProviderAttributes(specs: readonly AttributeSpec[]): ProviderAttribute[] {
  return specs.map((spec) => ({ namespace: spec.namespace, name: spec.name, read: spec.read }));
}
