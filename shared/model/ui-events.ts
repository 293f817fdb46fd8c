/**
 * Typed accessibility events: one kind per change an application reports. Providers produce them (see
 * main/core/provider.ts), the event service (main/services/ui-events.ts) describes, filters and bounds them, and the
 * CLI (`watch`), the API (`events.subscribe`) and the UI's Events panel show them in the record shape below.
 */

export const UI_EVENT_TYPES = [
  'focus',
  'state-changed',
  'name-changed',
  'value-changed',
  'text-changed',
  'children-changed',
  'window-opened',
  'window-closed',
  'window-activated',
  'bounds-changed',
  'selection-changed',
] as const;

export type UiEventType = (typeof UI_EVENT_TYPES)[number];

export function isUiEventType(value: string): value is UiEventType {
  return (UI_EVENT_TYPES as readonly string[]).includes(value);
}

/** What a provider reports, per kind. Text, names and values are left out by the service for secure nodes. */
export type UiEventChange =
  | { type: 'focus' }
  | { type: 'state-changed'; state: string; value: boolean }
  | { type: 'name-changed'; name: string | undefined }
  | { type: 'value-changed'; value: number | string | undefined }
  | { type: 'text-changed'; change: 'insert' | 'delete'; position: number; length: number; text: string | undefined }
  | { type: 'children-changed'; change: 'added' | 'removed'; index: number; child: string | undefined }
  | { type: 'window-opened' }
  | { type: 'window-closed' }
  | { type: 'window-activated' }
  | { type: 'bounds-changed'; bounds: { x: number; y: number; width: number; height: number } | undefined }
  | { type: 'selection-changed' };

/** A node as an event record names it; role and name are null once the node is gone (or could not be read). */
export interface UiEventNode {
  runtimeId: string;
  role: string | null;
  name: string | null;
}

export type UiEventDetailValue = string | number | boolean | null | UiEventNode;

/**
 * One event as every front end shows it (a `watch --format json` line): `time` is ISO 8601 UTC with milliseconds.
 * `detail` per type: state-changed `{state, value}`, name-changed `{name}`, value-changed `{value}`, text-changed
 * `{change, position, length, text}`, children-changed `{change, index, child}`, bounds-changed `{x, y, width,
 * height}`; the others `{}`. A secure node's (password field's) events carry `secure: true` and no text, name or
 * value in their detail; so do events whose node could not be read (without `secure`).
 */
export interface UiEventRecord {
  time: string;
  type: UiEventType;
  runtimeId: string;
  role: string | null;
  name: string | null;
  detail: { [key: string]: UiEventDetailValue };
}

/**
 * How much of a node's text an event may carry: all of it; none, since the node is secure (a password field); or
 * none, since whether it is secure could not be read (the node is gone or did not answer in time).
 */
export type TextProtection = 'none' | 'secure' | 'unknown';

/** The detail of a change as a record carries it (without text, name or value unless the protection is 'none'). */
export function eventDetail(
  change: UiEventChange,
  protection: TextProtection,
  child: UiEventNode | null,
): UiEventRecord['detail'] {
  const withheld: UiEventRecord['detail'] = protection === 'secure' ? { secure: true } : {};
  const open = protection === 'none';
  switch (change.type) {
    case 'state-changed':
      return { state: change.state, value: change.value };
    case 'name-changed':
      return open ? { name: change.name ?? null } : withheld;
    case 'value-changed':
      return open ? { value: change.value ?? null } : withheld;
    case 'text-changed':
      return {
        change: change.change,
        position: change.position,
        length: change.length,
        ...(open ? { text: change.text ?? null } : withheld),
      };
    case 'children-changed':
      return { change: change.change, index: change.index, child };
    case 'bounds-changed':
      return change.bounds ? { ...change.bounds } : {};
    default:
      return {};
  }
}

/** One line of text for an event: `12:00:01.234 name-changed Button "Save" name="Saved"`. */
export function eventLine(record: UiEventRecord): string {
  const node = record.role === null ? `${record.runtimeId} (gone)` : `${record.role} ${JSON.stringify(record.name)}`;
  const detail = Object.entries(record.detail)
    .map(([key, value]) => `${key}=${formatDetailValue(value)}`)
    .join(' ');
  return `${record.time.slice(11, 23)} ${record.type} ${node}${detail ? ` ${detail}` : ''}`;
}

function formatDetailValue(value: UiEventDetailValue): string {
  if (value !== null && typeof value === 'object') {
    return value.role === null ? `${value.runtimeId} (gone)` : `${value.role} ${JSON.stringify(value.name)}`;
  }
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
