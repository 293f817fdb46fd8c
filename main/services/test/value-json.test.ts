// valueJson: a typed value as snapshot JSON writes it, byte for byte what JSON.stringify of its plain form writes
// (indented or not), without the plain copy.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UiValue } from '../../../shared/model/values.js';
import {
  toJsonValue,
  uiArray,
  uiBool,
  uiInteger,
  uiNull,
  uiNumber,
  uiObject,
  uiPoint,
  uiRect,
  uiSize,
  uiString,
} from '../../../shared/model/values.js';
import { valueJson } from '../snapshot.js';

const values: UiValue[] = [
  uiString('plain'),
  uiString('quotes " and \\ and \n new line, \u2028, \u{1F600} and a lone \ud800'),
  uiBool(false),
  uiInteger(-0),
  uiNumber(1.5e-7),
  uiNumber(Number.NaN),
  uiNull(),
  uiRect({ x: 1, y: -2, width: 300, height: 0.5 }),
  uiPoint({ x: 0, y: Number.POSITIVE_INFINITY }),
  uiSize({ width: 8, height: 9 }),
  uiArray([]),
  uiObject({}),
  uiArray([uiString('a'), uiArray([]), uiObject({}), uiArray([uiInteger(1), uiArray([uiNull()])])]),
  // Integer-like keys first in ascending order, then the others as they came: as JSON.stringify orders them.
  uiObject({
    b: uiString('x'),
    10: uiInteger(1),
    a: uiObject({ 2: uiBool(true), 1: uiRect({ x: 0, y: 0, width: 1, height: 1 }) }),
  }),
  uiObject(
    JSON.parse('{"__proto__": {"type": "String", "value": "not a key"}, "kept": {"type": "Integer", "value": 3}}'),
  ),
  uiArray([{ type: 'Unknown' } as unknown as UiValue, uiString('after')]),
  uiObject({ gone: { type: 'Unknown' } as unknown as UiValue, kept: uiString('yes') }),
  uiRect({ x: 1, y: 2 } as unknown as { x: number; y: number; width: number; height: number }),
];

test('valueJson writes what JSON.stringify writes of the plain value, indented after its first line or compact', () => {
  for (const indent of ['', '      ']) {
    for (const value of values) {
      const plain = toJsonValue(value);
      const pretty = JSON.stringify(plain, null, 2)?.replace(/\n/g, `\n${indent}`);
      assert.equal(valueJson(value, true, indent), pretty, JSON.stringify(plain));
      assert.equal(valueJson(value, false, indent), JSON.stringify(plain), JSON.stringify(plain));
    }
  }
  assert.equal(valueJson({ type: 'Unknown' } as unknown as UiValue, true, ''), undefined);
});
