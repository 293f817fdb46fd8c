import { AttributeNames as A } from '../../../shared/model/attributes.js';
import type { AtspiCalls, ObjectRef } from './atspi-calls.js';
import { isNullRef, REGISTRY_NAME, ROOT_PATH } from './atspi-calls.js';
import type { DbusClient, SignalMessage } from '../../dbus/dbus-client.js';
import { runtimeIdOf } from './node-data.js';
import { DESKTOP_RUNTIME_ID, type ProviderUiEvent } from '../../core/provider.js';
import type { UiEventType } from '../../../shared/model/ui-events.js';

/**
 * Event subscription: registers the AT-SPI events the provider listens to (applications only emit events someone
 * registered for; registering also makes at-spi2-atk expose its Cache) and turns the D-Bus signals into typed
 * changes. The provider applies them to its node store and forwards ProviderEvents. Event bodies that carry text
 * (text-changed) are registered only while someone watches them (ON_DEMAND_EVENTS), and the text is dropped for
 * secure nodes by the event service before anything shows it.
 */

export const REGISTERED_EVENTS = [
  'object:children-changed',
  'object:property-change',
  'object:state-changed',
  'window:create',
  'window:destroy',
] as const;

/**
 * The AT-SPI events behind the typed event kinds the provider does not register for its own tree: registered with the
 * registry (which makes every application emit them) only while someone watches the kind.
 */
export const ON_DEMAND_EVENTS: { readonly [T in UiEventType]?: readonly string[] } = {
  'text-changed': ['object:text-changed'],
  'value-changed': ['object:value-changed'],
  'bounds-changed': ['object:bounds-changed'],
  'selection-changed': ['object:selection-changed'],
  'window-activated': ['window:activate'],
};

const MATCH_RULES = [
  "type='signal',interface='org.a11y.atspi.Event.Object'",
  "type='signal',interface='org.a11y.atspi.Event.Window'",
  "type='signal',interface='org.a11y.atspi.Cache'",
  "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'",
];

export type AtspiChange =
  | { kind: 'children-added'; parent: string; child: string | undefined; index: number; fromRegistry: boolean }
  | { kind: 'children-removed'; parent: string; child: string | undefined; index: number; fromRegistry: boolean }
  | { kind: 'property'; target: string; property: string; attributes: string[]; name?: string; description?: string }
  | { kind: 'state'; target: string; state: string; on: boolean; attributes: string[] }
  | { kind: 'window'; target: string; event: string }
  | { kind: 'cache-add'; target: string; parent: string | undefined }
  | { kind: 'cache-remove'; target: string }
  | { kind: 'application-gone'; busName: string };

const STATE_ATTRIBUTES: { readonly [state: string]: readonly string[] } = {
  focused: [A.IsFocused],
  enabled: [A.IsEnabled],
  sensitive: [A.IsEnabled],
  visible: [A.IsVisible],
  showing: [A.IsVisible, A.IsInView],
  selected: [A.IsSelected],
  selectable: [A.IsSelected],
  expanded: [A.IsExpanded],
  expandable: [A.IsExpanded],
  checked: [A.ToggleState],
  pressed: [A.ToggleState],
  indeterminate: [A.ToggleState],
  checkable: [A.ToggleState],
  editable: [A.IsReadOnly],
  'read-only': [A.IsReadOnly],
  iconified: [A.IsMinimized],
  defunct: [],
};

const PROPERTY_ATTRIBUTES: { readonly [property: string]: readonly string[] } = {
  'accessible-name': [A.Name],
  'accessible-description': [A.Description],
  'accessible-value': [A.Value],
  'accessible-role': [A.Role],
  'accessible-id': [A.Id],
  'accessible-parent': [],
};

function refFrom(value: unknown): ObjectRef | undefined {
  const pair = (value as { value?: unknown } | undefined)?.value ?? value;
  if (Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && typeof pair[1] === 'string') {
    return [pair[0], pair[1]];
  }
  return undefined;
}

/** Translates one D-Bus signal; undefined for signals the provider does not use. */
export function translateSignal(signal: SignalMessage, registryOwner: string | undefined): AtspiChange | undefined {
  const body = signal.body;
  if (signal.interface === 'org.freedesktop.DBus' && signal.member === 'NameOwnerChanged') {
    const [name, , newOwner] = body as [string, string, string];
    if (typeof name === 'string' && name.startsWith(':') && newOwner === '') {
      return { kind: 'application-gone', busName: name };
    }
    return undefined;
  }
  const target = runtimeIdOf([signal.sender, signal.path]);
  if (signal.interface === 'org.a11y.atspi.Event.Object') {
    const detail = String(body[0] ?? '');
    const detail1 = Number(body[1] ?? 0);
    const anyData = body[3];
    switch (signal.member) {
      case 'ChildrenChanged': {
        const childRef = refFrom(anyData);
        const child = childRef && !isNullRef(childRef) ? runtimeIdOf(childRef) : undefined;
        const fromRegistry =
          signal.path === ROOT_PATH && registryOwner !== undefined && signal.sender === registryOwner;
        const kind = detail.startsWith('remove') ? 'children-removed' : 'children-added';
        return { kind, parent: target, child, index: detail1, fromRegistry };
      }
      case 'PropertyChange': {
        const change: AtspiChange = {
          kind: 'property',
          target,
          property: detail,
          attributes: [...(PROPERTY_ATTRIBUTES[detail] ?? [])],
        };
        const value = (anyData as { value?: unknown } | undefined)?.value;
        if (detail === 'accessible-name' && typeof value === 'string') change.name = value;
        if (detail === 'accessible-description' && typeof value === 'string') change.description = value;
        return change;
      }
      case 'StateChanged':
        return {
          kind: 'state',
          target,
          state: detail,
          on: detail1 === 1,
          attributes: [...(STATE_ATTRIBUTES[detail] ?? [])],
        };
      default:
        return undefined;
    }
  }
  if (signal.interface === 'org.a11y.atspi.Event.Window') {
    return { kind: 'window', target, event: signal.member };
  }
  if (signal.interface === 'org.a11y.atspi.Cache') {
    if (signal.member === 'AddAccessible') {
      const item = body[0] as unknown[] | undefined;
      const ref = refFrom(item?.[0]);
      const parent = refFrom(item?.[2]);
      if (!ref) return undefined;
      return { kind: 'cache-add', target: runtimeIdOf(ref), parent: parent ? runtimeIdOf(parent) : undefined };
    }
    if (signal.member === 'RemoveAccessible') {
      const ref = refFrom(body[0]);
      return ref ? { kind: 'cache-remove', target: runtimeIdOf(ref) } : undefined;
    }
  }
  return undefined;
}

function numberOrString(value: unknown): number | string | undefined {
  return typeof value === 'number' || typeof value === 'string' ? value : undefined;
}

/**
 * The typed event of one D-Bus signal; undefined for signals that are none (cache and bus signals). The registry
 * root's children-changed (an application coming or going) is the desktop's.
 */
export function translateUiEvent(
  signal: SignalMessage,
  registryOwner: string | undefined,
): ProviderUiEvent | undefined {
  const body = signal.body;
  if (registryOwner !== undefined && signal.sender === registryOwner) {
    if (signal.interface !== 'org.a11y.atspi.Event.Object' || signal.member !== 'ChildrenChanged') return undefined;
    if (signal.path !== ROOT_PATH) return undefined;
    const childRef = refFrom(body[3]);
    return {
      type: 'children-changed',
      runtimeId: DESKTOP_RUNTIME_ID,
      change: String(body[0] ?? '').startsWith('remove') ? 'removed' : 'added',
      index: Number(body[1] ?? 0),
      child: childRef && !isNullRef(childRef) ? runtimeIdOf(childRef) : undefined,
    };
  }
  const runtimeId = runtimeIdOf([signal.sender, signal.path]);
  if (signal.interface === 'org.a11y.atspi.Event.Window') {
    switch (signal.member) {
      case 'Create':
        return { type: 'window-opened', runtimeId };
      case 'Destroy':
        return { type: 'window-closed', runtimeId };
      case 'Activate':
        return { type: 'window-activated', runtimeId };
      default:
        return undefined;
    }
  }
  if (signal.interface !== 'org.a11y.atspi.Event.Object') return undefined;
  const detail = String(body[0] ?? '');
  const detail1 = Number(body[1] ?? 0);
  const detail2 = Number(body[2] ?? 0);
  const anyData = (body[3] as { value?: unknown } | undefined)?.value;
  switch (signal.member) {
    case 'StateChanged': {
      const state = detail.split(':')[0] ?? detail;
      if (state === 'focused' && detail1 === 1) return { type: 'focus', runtimeId };
      return { type: 'state-changed', runtimeId, state, value: detail1 === 1 };
    }
    case 'PropertyChange':
      if (detail === 'accessible-name') {
        return { type: 'name-changed', runtimeId, name: typeof anyData === 'string' ? anyData : undefined };
      }
      if (detail === 'accessible-value') return { type: 'value-changed', runtimeId, value: numberOrString(anyData) };
      return undefined;
    case 'ValueChanged':
      return { type: 'value-changed', runtimeId, value: numberOrString(anyData) };
    case 'TextChanged':
      return {
        type: 'text-changed',
        runtimeId,
        change: detail.startsWith('delete') ? 'delete' : 'insert',
        position: detail1,
        length: detail2,
        text: typeof anyData === 'string' ? anyData : undefined,
      };
    case 'ChildrenChanged': {
      const childRef = refFrom(body[3]);
      return {
        type: 'children-changed',
        runtimeId,
        change: detail.startsWith('remove') ? 'removed' : 'added',
        index: detail1,
        child: childRef && !isNullRef(childRef) ? runtimeIdOf(childRef) : undefined,
      };
    }
    case 'BoundsChanged': {
      const rect = Array.isArray(anyData) ? anyData.map(Number) : [];
      const [x, y, width, height] = rect;
      const known = rect.length === 4 && rect.every(Number.isFinite);
      return {
        type: 'bounds-changed',
        runtimeId,
        bounds: known ? { x: x!, y: y!, width: width!, height: height! } : undefined,
      };
    }
    case 'SelectionChanged':
      return { type: 'selection-changed', runtimeId };
    default:
      return undefined;
  }
}

export interface EventSubscription {
  /** Unique name of the registry daemon (its root ChildrenChanged are application additions and removals). */
  registryOwner: string | undefined;
  stop(): void;
}

/** Registers the events and the match rules and starts delivering translated changes. */
export async function subscribeToEvents(
  client: DbusClient,
  calls: AtspiCalls,
  onChange: (change: AtspiChange) => void,
  afterChange: (signal: SignalMessage, registryOwner: string | undefined) => void,
): Promise<EventSubscription> {
  let registryOwner: string | undefined;
  try {
    const [owner] = await client.call({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'GetNameOwner',
      signature: 's',
      body: [REGISTRY_NAME],
    });
    registryOwner = typeof owner === 'string' ? owner : undefined;
  } catch {
    registryOwner = undefined;
  }
  const subscription: EventSubscription = { registryOwner, stop: () => undefined };
  const stopListening = client.onSignal((signal) => {
    const change = translateSignal(signal, subscription.registryOwner);
    if (change) onChange(change);
    afterChange(signal, subscription.registryOwner);
  });
  await Promise.all(MATCH_RULES.map((rule) => client.addMatch(rule).catch(() => undefined)));
  await Promise.all(REGISTERED_EVENTS.map((event) => calls.registerEvent(event).catch(() => undefined)));
  // The registry drops our registrations by itself when this connection closes.
  subscription.stop = stopListening;
  return subscription;
}
