import { InspectorError } from '../../../shared/model/errors.js';
import type { Rect } from '../../../shared/model/values.js';
import type { DbusClient } from '../../dbus/dbus-client.js';
import { internInterfaces } from './node-data.js';

/**
 * Typed AT-SPI2 calls with hard-coded signatures: one function per method or property the provider uses, so no
 * call depends on introspection and every argument has a known D-Bus type.
 */

export type ObjectRef = readonly [busName: string, path: string];

export const NULL_PATH = '/org/a11y/atspi/null';
export const ROOT_PATH = '/org/a11y/atspi/accessible/root';
export const REGISTRY_NAME = 'org.a11y.atspi.Registry';
export const CACHE_PATH = '/org/a11y/atspi/cache';

export const IFACE = {
  Accessible: 'org.a11y.atspi.Accessible',
  Action: 'org.a11y.atspi.Action',
  Application: 'org.a11y.atspi.Application',
  Collection: 'org.a11y.atspi.Collection',
  Component: 'org.a11y.atspi.Component',
  Document: 'org.a11y.atspi.Document',
  EditableText: 'org.a11y.atspi.EditableText',
  Hyperlink: 'org.a11y.atspi.Hyperlink',
  Hypertext: 'org.a11y.atspi.Hypertext',
  Image: 'org.a11y.atspi.Image',
  Selection: 'org.a11y.atspi.Selection',
  Table: 'org.a11y.atspi.Table',
  TableCell: 'org.a11y.atspi.TableCell',
  Text: 'org.a11y.atspi.Text',
  Value: 'org.a11y.atspi.Value',
  Cache: 'org.a11y.atspi.Cache',
  Registry: 'org.a11y.atspi.Registry',
} as const;

/** ATSPI_COORD_TYPE_SCREEN: desktop coordinates. */
export const COORD_SCREEN = 0;
/** AtspiScrollType ATSPI_SCROLL_ANYWHERE: the least scrolling that brings the element into view. */
export const SCROLL_ANYWHERE = 6;

export function isNullRef(ref: ObjectRef | undefined): boolean {
  return !ref || ref[1] === NULL_PATH || ref[0] === '';
}

function asRef(value: unknown): ObjectRef {
  const pair = value as [string, string];
  // The decoded (so) pair itself when it is one (no copy: a cache reply holds tens of thousands of them).
  if (Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && typeof pair[1] === 'string') {
    return pair;
  }
  return [String(pair?.[0] ?? ''), String(pair?.[1] ?? NULL_PATH)];
}

function asStates(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  for (const word of value) if (typeof word !== 'number') return value.map(Number);
  return value as number[];
}

/** One entry of `Cache.GetItems`, normalized over the two signatures in use. */
export interface CacheItem {
  ref: ObjectRef;
  /** The runtime id of `ref`, computed once. */
  key: string;
  parent: ObjectRef;
  /** Index in parent (current signature); undefined for the older signature with a child list. */
  indexInParent: number | undefined;
  childCount: number;
  /** Child references (older signature, e.g. Qt); undefined otherwise. */
  children: ObjectRef[] | undefined;
  interfaces: string[];
  name: string;
  role: number;
  description: string;
  states: number[];
}

export function parseCacheItem(raw: unknown): CacheItem | undefined {
  const item = raw as unknown[];
  if (!Array.isArray(item)) return undefined;
  if (item.length === 10) {
    const ref = asRef(item[0]);
    return {
      ref,
      key: `atspi://${ref[0]}${ref[1]}`,
      parent: asRef(item[2]),
      indexInParent: Number(item[3]),
      childCount: Number(item[4]),
      children: undefined,
      interfaces: internInterfaces((item[5] as string[]) ?? []),
      name: String(item[6] ?? ''),
      role: Number(item[7]),
      description: String(item[8] ?? ''),
      states: asStates(item[9]),
    };
  }
  if (item.length === 9) {
    const children = ((item[3] as unknown[]) ?? []).map(asRef);
    const ref = asRef(item[0]);
    return {
      ref,
      key: `atspi://${ref[0]}${ref[1]}`,
      parent: asRef(item[2]),
      indexInParent: undefined,
      childCount: children.length,
      children,
      interfaces: internInterfaces((item[4] as string[]) ?? []),
      name: String(item[5] ?? ''),
      role: Number(item[6]),
      description: String(item[7] ?? ''),
      states: asStates(item[8]),
    };
  }
  return undefined;
}

/** One entry of `Collection.GetTree`: the object and the named properties that came with it. */
export interface TreeEntry {
  ref: ObjectRef;
  /** The runtime id of `ref`, computed once. */
  key: string;
  properties: { [name: string]: unknown };
}

/**
 * The properties `Collection.GetTree` is asked for: the structure (ChildCount) and the developer id, which the
 * cache does not carry. Only named, known-safe Accessible properties: an empty list means "everything" and crashed
 * Chromium when tried. Names, roles and states come from the cache.
 */
export const SAFE_TREE_PROPERTIES = ['ChildCount', 'AccessibleId'] as const;
/**
 * The properties asked for when the cache cannot give the structure (a partial cache: Chromium started while a
 * listener such as Orca was registered keeps the cache it built at start): names and descriptions come with the
 * structure, so the per-node reads that remain are role, states and interfaces (three calls instead of five).
 */
export const STRUCTURE_TREE_PROPERTIES = ['ChildCount', 'AccessibleId', 'Name', 'Description'] as const;
/**
 * The names alone, asked for when the GetTree that went out beside the cache call (for the ids) brought none and the
 * cache turned out partial: one more walk instead of two property reads per node.
 */
export const NAME_TREE_PROPERTIES = ['Name', 'Description'] as const;
/** The properties asked for when only the developer ids are missing (the structure came from a complete cache). */
export const ID_TREE_PROPERTIES = ['AccessibleId'] as const;
/**
 * SAFE_TREE_PROPERTIES with the object attributes (the `Attributes` property, at-spi2-core 2.46+; what
 * `GetAttributes` answers) and the text state (the Text interface's properties, named `text.` as the bridge's
 * GetTree takes them; only nodes with that interface answer them), for a load whose nodes will all have their
 * attributes read: one call's extra answer instead of a GetAttributes and a Properties.GetAll call per node.
 */
export const TREE_PROPERTIES_WITH_ATTRIBUTES = [
  ...SAFE_TREE_PROPERTIES,
  'Attributes',
  'text.CharacterCount',
  'text.CaretOffset',
] as const;

/** The text state a GetTree entry brought (asked with TREE_PROPERTIES_WITH_ATTRIBUTES), when it has both numbers. */
export function treeEntryTextState(entry: TreeEntry): { characterCount: number; caretOffset: number } | undefined {
  const characterCount = entry.properties['text.CharacterCount'];
  const caretOffset = entry.properties['text.CaretOffset'];
  if (typeof characterCount !== 'number' || typeof caretOffset !== 'number') return undefined;
  return { characterCount, caretOffset };
}

/** The object attributes a GetTree entry brought, when it was asked for them and they have the expected form. */
export function treeEntryAttributes(entry: TreeEntry): { [key: string]: string } | undefined {
  const value = entry.properties.Attributes;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  for (const item of Object.values(value)) if (typeof item !== 'string') return undefined;
  return value as { [key: string]: string };
}

/** A match rule that matches everything: (states, match, attributes, match, roles, match, interfaces, match, invert). */
const MATCH_ALL_RULE = [[], 0, {}, 0, [], 0, [], 0, false];

export class AtspiCalls {
  constructor(readonly client: DbusClient) {}

  private call(
    ref: ObjectRef,
    iface: string,
    member: string,
    signature?: string,
    body?: unknown[],
    timeoutMs?: number,
  ) {
    // One object of one shape for every call (tens of thousands per snapshot): absent fields are undefined.
    return this.client.call({
      destination: ref[0],
      path: ref[1],
      interface: iface,
      member,
      signature,
      body: signature ? (body ?? []) : undefined,
      timeoutMs: timeoutMs || undefined,
    });
  }

  private prop(ref: ObjectRef, iface: string, name: string): Promise<unknown> {
    return this.client.getProperty(ref[0], ref[1], iface, name);
  }

  // Accessible
  async getChildren(ref: ObjectRef): Promise<ObjectRef[]> {
    const [children] = await this.call(ref, IFACE.Accessible, 'GetChildren');
    return ((children as unknown[]) ?? []).map(asRef);
  }
  async getChildAtIndex(ref: ObjectRef, index: number): Promise<ObjectRef> {
    const [child] = await this.call(ref, IFACE.Accessible, 'GetChildAtIndex', 'i', [index]);
    return asRef(child);
  }
  async getRole(ref: ObjectRef): Promise<number> {
    const [role] = await this.call(ref, IFACE.Accessible, 'GetRole');
    return Number(role);
  }
  async getState(ref: ObjectRef): Promise<number[]> {
    const [states] = await this.call(ref, IFACE.Accessible, 'GetState');
    return ((states as number[]) ?? []).map(Number);
  }
  async getInterfaces(ref: ObjectRef): Promise<string[]> {
    const [interfaces] = await this.call(ref, IFACE.Accessible, 'GetInterfaces');
    return internInterfaces((interfaces as string[]) ?? []);
  }
  async getAttributes(ref: ObjectRef): Promise<{ [key: string]: string }> {
    const [attributes] = await this.call(ref, IFACE.Accessible, 'GetAttributes');
    return (attributes as { [key: string]: string }) ?? {};
  }
  /** `GetRelationSet`: each relation's AT-SPI type number and its targets. */
  async getRelationSet(ref: ObjectRef): Promise<Array<{ type: number; targets: ObjectRef[] }>> {
    const [relations] = await this.call(ref, IFACE.Accessible, 'GetRelationSet');
    return ((relations as unknown[][]) ?? []).map((relation) => ({
      type: Number(relation[0]),
      targets: ((relation[1] as unknown[]) ?? []).map(asRef),
    }));
  }
  async getIndexInParent(ref: ObjectRef): Promise<number> {
    const [index] = await this.call(ref, IFACE.Accessible, 'GetIndexInParent');
    return Number(index);
  }
  /** The address of the application's own D-Bus server (libatspi talks to it directly), or '' if it has none. */
  async getApplicationBusAddress(busName: string): Promise<string> {
    const [address] = await this.call([busName, ROOT_PATH], IFACE.Application, 'GetApplicationBusAddress');
    return typeof address === 'string' ? address : '';
  }
  async getApplication(ref: ObjectRef): Promise<ObjectRef> {
    const [app] = await this.call(ref, IFACE.Accessible, 'GetApplication');
    return asRef(app);
  }
  async getName(ref: ObjectRef): Promise<string> {
    return String((await this.prop(ref, IFACE.Accessible, 'Name')) ?? '');
  }
  async getDescription(ref: ObjectRef): Promise<string> {
    return String((await this.prop(ref, IFACE.Accessible, 'Description')) ?? '');
  }
  async getChildCount(ref: ObjectRef): Promise<number> {
    return Number((await this.prop(ref, IFACE.Accessible, 'ChildCount')) ?? 0);
  }
  async getAccessibleId(ref: ObjectRef): Promise<string> {
    try {
      return String((await this.prop(ref, IFACE.Accessible, 'AccessibleId')) ?? '');
    } catch {
      return '';
    }
  }
  async getParent(ref: ObjectRef): Promise<ObjectRef> {
    return asRef(await this.prop(ref, IFACE.Accessible, 'Parent'));
  }
  async getLocale(ref: ObjectRef): Promise<string> {
    return String((await this.prop(ref, IFACE.Accessible, 'Locale')) ?? '');
  }

  // Application
  async getToolkitName(ref: ObjectRef): Promise<string> {
    return String((await this.prop(ref, IFACE.Application, 'ToolkitName')) ?? '');
  }
  async getToolkitVersion(ref: ObjectRef): Promise<string> {
    return String((await this.prop(ref, IFACE.Application, 'Version')) ?? '');
  }

  // Component
  async getExtents(ref: ObjectRef, coordType = COORD_SCREEN): Promise<Rect> {
    const [extents] = await this.call(ref, IFACE.Component, 'GetExtents', 'u', [coordType]);
    const [x, y, width, height] = (extents as number[]).map(Number);
    return { x: x ?? 0, y: y ?? 0, width: width ?? 0, height: height ?? 0 };
  }
  async getAccessibleAtPoint(ref: ObjectRef, x: number, y: number, coordType = COORD_SCREEN): Promise<ObjectRef> {
    const [child] = await this.call(ref, IFACE.Component, 'GetAccessibleAtPoint', 'iiu', [
      Math.round(x),
      Math.round(y),
      coordType,
    ]);
    return asRef(child);
  }
  async grabFocus(ref: ObjectRef): Promise<boolean> {
    const [ok] = await this.call(ref, IFACE.Component, 'GrabFocus');
    return ok === true;
  }
  /**
   * Component.ScrollTo (at-spi2 2.30): the application scrolls the element into view; false when it does not
   * implement scrolling for it (ATK's default, GTK 3 widgets).
   */
  async scrollTo(ref: ObjectRef, scrollType = SCROLL_ANYWHERE): Promise<boolean> {
    const [ok] = await this.call(ref, IFACE.Component, 'ScrollTo', 'u', [scrollType]);
    return ok === true;
  }
  async getLayer(ref: ObjectRef): Promise<number> {
    const [layer] = await this.call(ref, IFACE.Component, 'GetLayer');
    return Number(layer);
  }

  // Text (never called for secure elements)
  async getCharacterCount(ref: ObjectRef): Promise<number> {
    return Number((await this.prop(ref, IFACE.Text, 'CharacterCount')) ?? 0);
  }
  async getCaretOffset(ref: ObjectRef): Promise<number> {
    return Number((await this.prop(ref, IFACE.Text, 'CaretOffset')) ?? 0);
  }
  /** CharacterCount and CaretOffset in one call (Properties.GetAll), or in two where GetAll is not offered. */
  async getTextState(ref: ObjectRef): Promise<{ characterCount: number; caretOffset: number }> {
    let all: { [name: string]: { value: unknown } | undefined };
    try {
      [all] = (await this.call(ref, 'org.freedesktop.DBus.Properties', 'GetAll', 's', [IFACE.Text])) as [typeof all];
    } catch (error) {
      if (!(error instanceof InspectorError && error.code === 'unsupported')) throw error;
      all = {};
    }
    const count = all?.CharacterCount?.value;
    const caret = all?.CaretOffset?.value;
    return {
      characterCount: count === undefined ? await this.getCharacterCount(ref) : Number(count),
      caretOffset: caret === undefined ? await this.getCaretOffset(ref) : Number(caret),
    };
  }
  async getText(ref: ObjectRef, start = 0, end = -1): Promise<string> {
    const [text] = await this.call(ref, IFACE.Text, 'GetText', 'ii', [start, end]);
    return String(text ?? '');
  }
  /** The text attributes in effect at an offset, defaults included (`GetAttributeRun`). */
  async getTextAttributes(ref: ObjectRef, offset: number): Promise<{ [name: string]: string }> {
    const [attributes] = await this.call(ref, IFACE.Text, 'GetAttributeRun', 'ib', [offset, true]);
    return (attributes as { [name: string]: string }) ?? {};
  }
  async getNSelections(ref: ObjectRef): Promise<number> {
    const [count] = await this.call(ref, IFACE.Text, 'GetNSelections');
    return Number(count);
  }
  async getTextSelection(ref: ObjectRef, index: number): Promise<[number, number]> {
    const [start, end] = await this.call(ref, IFACE.Text, 'GetSelection', 'i', [index]);
    return [Number(start), Number(end)];
  }

  // EditableText
  async setTextContents(ref: ObjectRef, text: string): Promise<boolean> {
    const [ok] = await this.call(ref, IFACE.EditableText, 'SetTextContents', 's', [text]);
    return ok === true;
  }

  // Value
  async getValueProperty(ref: ObjectRef, name: 'CurrentValue' | 'MinimumValue' | 'MaximumValue' | 'MinimumIncrement') {
    return Number(await this.prop(ref, IFACE.Value, name));
  }
  async setCurrentValue(ref: ObjectRef, value: number): Promise<void> {
    await this.client.setProperty(ref[0], ref[1], IFACE.Value, 'CurrentValue', 'd', value);
  }

  // Action
  async getActions(ref: ObjectRef): Promise<Array<{ name: string; description: string; keyBinding: string }>> {
    const [actions] = await this.call(ref, IFACE.Action, 'GetActions');
    return ((actions as string[][]) ?? []).map((a) => ({
      name: String(a[0] ?? ''),
      description: String(a[1] ?? ''),
      keyBinding: String(a[2] ?? ''),
    }));
  }
  async doAction(ref: ObjectRef, index: number): Promise<boolean> {
    const [ok] = await this.call(ref, IFACE.Action, 'DoAction', 'i', [index]);
    return ok === true;
  }

  // Selection
  async getNSelectedChildren(ref: ObjectRef): Promise<number> {
    return Number((await this.prop(ref, IFACE.Selection, 'NSelectedChildren')) ?? 0);
  }
  async getSelectedChild(ref: ObjectRef, index: number): Promise<ObjectRef> {
    const [child] = await this.call(ref, IFACE.Selection, 'GetSelectedChild', 'i', [index]);
    return asRef(child);
  }
  async selectChild(ref: ObjectRef, index: number): Promise<boolean> {
    const [ok] = await this.call(ref, IFACE.Selection, 'SelectChild', 'i', [index]);
    return ok === true;
  }

  // Table, Image, Document: read as native attributes
  async getIntProperty(ref: ObjectRef, iface: string, name: string): Promise<number> {
    return Number(await this.prop(ref, iface, name));
  }
  async getTableHeader(ref: ObjectRef, axis: 'Column' | 'Row', index: number): Promise<ObjectRef> {
    const [header] = await this.call(ref, IFACE.Table, `Get${axis}Header`, 'i', [index]);
    return asRef(header);
  }
  async getStringProperty(ref: ObjectRef, iface: string, name: string): Promise<string> {
    return String((await this.prop(ref, iface, name)) ?? '');
  }
  async getDocumentAttributes(ref: ObjectRef): Promise<{ [key: string]: string }> {
    const [attributes] = await this.call(ref, IFACE.Document, 'GetAttributes');
    return (attributes as { [key: string]: string }) ?? {};
  }

  // Bulk
  /** `Cache.GetItems` of one application; undefined when the application has no cache object. */
  async getCacheItems(busName: string, timeoutMs: number): Promise<CacheItem[] | undefined> {
    try {
      const [items] = await this.call([busName, CACHE_PATH], IFACE.Cache, 'GetItems', undefined, undefined, timeoutMs);
      const out: CacheItem[] = [];
      for (const raw of (items as unknown[]) ?? []) {
        const item = parseCacheItem(raw);
        if (item) out.push(item);
      }
      return out;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'unsupported' || code === 'action-failed') return undefined;
      throw error;
    }
  }

  /**
   * `Collection.GetTree` from `ref` in pre-order with named safe properties (never an empty list: that means "every
   * property" and crashed Chromium).
   */
  async getTree(
    ref: ObjectRef,
    timeoutMs: number,
    properties: readonly string[] = SAFE_TREE_PROPERTIES,
  ): Promise<TreeEntry[]> {
    if (properties.length === 0) throw new Error('Collection.GetTree needs named properties');
    const [entries] = await this.call(
      ref,
      IFACE.Collection,
      'GetTree',
      '(aiia{ss}iaiiasib)as',
      [MATCH_ALL_RULE, [...properties]],
      timeoutMs,
    );
    return ((entries as unknown[][]) ?? []).map((entry) => {
      const variants = (entry[1] as { [name: string]: { value: unknown } }) ?? {};
      const properties: { [name: string]: unknown } = {};
      for (const [key, variant] of Object.entries(variants)) properties[key] = variant?.value;
      const ref = asRef(entry[0]);
      return { ref, key: `atspi://${ref[0]}${ref[1]}`, properties };
    });
  }

  // Registry
  async registerEvent(event: string): Promise<void> {
    try {
      await this.call(
        ['org.a11y.atspi.Registry', '/org/a11y/atspi/registry'],
        IFACE.Registry,
        'RegisterEvent',
        'sass',
        [event, [], ''],
      );
    } catch {
      // Older registries take only the event name.
      await this.call(['org.a11y.atspi.Registry', '/org/a11y/atspi/registry'], IFACE.Registry, 'RegisterEvent', 's', [
        event,
      ]);
    }
  }
  async deregisterEvent(event: string): Promise<void> {
    await this.call(['org.a11y.atspi.Registry', '/org/a11y/atspi/registry'], IFACE.Registry, 'DeregisterEvent', 's', [
      event,
    ]);
  }

  // Bus daemon
  async getConnectionUnixProcessId(busName: string): Promise<number | undefined> {
    try {
      const [pid] = await this.client.call({
        destination: 'org.freedesktop.DBus',
        path: '/org/freedesktop/DBus',
        interface: 'org.freedesktop.DBus',
        member: 'GetConnectionUnixProcessID',
        signature: 's',
        body: [busName],
      });
      return typeof pid === 'number' ? pid : Number(pid);
    } catch {
      return undefined;
    }
  }
}
