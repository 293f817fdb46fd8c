/** Typed attribute values of the UI model (PlatynUI's UiValue). */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface Point {
  x: number;
  y: number;
}
export interface Size {
  width: number;
  height: number;
}

export type UiValue =
  | { type: 'String'; value: string }
  | { type: 'Bool'; value: boolean }
  | { type: 'Integer'; value: number }
  | { type: 'Number'; value: number }
  | { type: 'Null' }
  | { type: 'Rect'; value: Rect }
  | { type: 'Point'; value: Point }
  | { type: 'Size'; value: Size }
  | { type: 'Array'; value: UiValue[] }
  | { type: 'Object'; value: { [key: string]: UiValue } };

export type UiValueType = UiValue['type'];

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const uiString = (value: string): UiValue => ({ type: 'String', value });
export const uiBool = (value: boolean): UiValue => ({ type: 'Bool', value });
export const uiInteger = (value: number): UiValue => ({ type: 'Integer', value: Math.trunc(value) });
export const uiNumber = (value: number): UiValue => ({ type: 'Number', value });
export const uiNull = (): UiValue => ({ type: 'Null' });
export const uiRect = (value: Rect): UiValue => ({ type: 'Rect', value });
export const uiPoint = (value: Point): UiValue => ({ type: 'Point', value });
export const uiSize = (value: Size): UiValue => ({ type: 'Size', value });
export const uiArray = (value: UiValue[]): UiValue => ({ type: 'Array', value });
export const uiObject = (value: { [key: string]: UiValue }): UiValue => ({ type: 'Object', value });

/** Plain JSON form of a value, as the CLI and the snapshot format write it. */
export function toJsonValue(value: UiValue): JsonValue {
  switch (value.type) {
    case 'String':
    case 'Bool':
    case 'Integer':
    case 'Number':
      return value.value;
    case 'Null':
      return null;
    case 'Rect':
      return { x: value.value.x, y: value.value.y, width: value.value.width, height: value.value.height };
    case 'Point':
      return { x: value.value.x, y: value.value.y };
    case 'Size':
      return { width: value.value.width, height: value.value.height };
    case 'Array':
      return value.value.map(toJsonValue);
    case 'Object': {
      const out: { [key: string]: JsonValue } = {};
      for (const [key, item] of Object.entries(value.value)) out[key] = toJsonValue(item);
      return out;
    }
  }
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function hasExactKeys(value: object, keys: string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => own.includes(key));
}

/** Reads a JSON value back into a typed value; objects shaped like Rect, Point or Size become those types. */
export function fromJsonValue(json: JsonValue): UiValue {
  if (json === null) return uiNull();
  if (typeof json === 'string') return uiString(json);
  if (typeof json === 'boolean') return uiBool(json);
  if (typeof json === 'number') return Number.isInteger(json) ? uiInteger(json) : uiNumber(json);
  if (Array.isArray(json)) return uiArray(json.map(fromJsonValue));
  const record = json as { [key: string]: JsonValue };
  const numeric = (keys: string[]) => hasExactKeys(record, keys) && keys.every((key) => isFiniteNumber(record[key]));
  if (numeric(['x', 'y', 'width', 'height'])) {
    return uiRect({
      x: record.x as number,
      y: record.y as number,
      width: record.width as number,
      height: record.height as number,
    });
  }
  if (numeric(['x', 'y'])) return uiPoint({ x: record.x as number, y: record.y as number });
  if (numeric(['width', 'height'])) return uiSize({ width: record.width as number, height: record.height as number });
  const out: { [key: string]: UiValue } = {};
  for (const [key, item] of Object.entries(record)) out[key] = fromJsonValue(item);
  return uiObject(out);
}

/** Text form used in XML attributes: scalars as literals, structures as compact JSON. */
export function formatValueText(value: UiValue): string {
  switch (value.type) {
    case 'String':
      return value.value;
    case 'Bool':
      return value.value ? 'true' : 'false';
    case 'Integer':
      return String(value.value);
    case 'Number':
      return formatNumber(value.value);
    case 'Null':
      return 'null';
    default:
      return JSON.stringify(toJsonValue(value));
  }
}

/** A Number always reads back as a Number: integral values keep a decimal point. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const text = String(value);
  return Number.isInteger(value) && !/[eE]/.test(text) ? `${text}.0` : text;
}

const integerPattern = /^-?(0|[1-9][0-9]*)$/;
const decimalPattern = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;

/**
 * Parses the text of an XML attribute into a typed value: true/false are Bool, integers Integer, decimals Number,
 * JSON objects and arrays Rect/Point/Size/Array/Object, `null` Null; everything else is a String.
 */
export function parseValueText(text: string): UiValue {
  if (text === 'true') return uiBool(true);
  if (text === 'false') return uiBool(false);
  if (text === 'null') return uiNull();
  if (integerPattern.test(text)) {
    const parsed = Number(text);
    if (Number.isSafeInteger(parsed)) return uiInteger(parsed);
  }
  if (decimalPattern.test(text) && !integerPattern.test(text)) return uiNumber(Number(text));
  const first = text.charAt(0);
  if (first === '{' || first === '[') {
    try {
      return fromJsonValue(JSON.parse(text) as JsonValue);
    } catch {
      return uiString(text);
    }
  }
  return uiString(text);
}

export function valuesEqual(a: UiValue, b: UiValue): boolean {
  return JSON.stringify(toJsonValue(a)) === JSON.stringify(toJsonValue(b)) && a.type === b.type;
}
