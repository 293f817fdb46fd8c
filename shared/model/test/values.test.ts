import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deriveAliases, isAliasName, withDerivedAliases } from '../attributes.js';
import { NAMESPACE_URIS, attributeKey, namespaceFromUri, parseAttributeKey } from '../namespaces.js';
import { checkPatternContract } from '../patterns.js';
import { formatValueText, fromJsonValue, parseValueText, toJsonValue, uiRect, uiString } from '../values.js';

test('attribute text parses into typed values', () => {
  assert.deepEqual(parseValueText('true'), { type: 'Bool', value: true });
  assert.deepEqual(parseValueText('false'), { type: 'Bool', value: false });
  assert.deepEqual(parseValueText('42'), { type: 'Integer', value: 42 });
  assert.deepEqual(parseValueText('-7'), { type: 'Integer', value: -7 });
  assert.deepEqual(parseValueText('1.5'), { type: 'Number', value: 1.5 });
  assert.deepEqual(parseValueText('1.0'), { type: 'Number', value: 1 });
  assert.deepEqual(parseValueText('007'), { type: 'String', value: '007' });
  assert.deepEqual(parseValueText('OK'), { type: 'String', value: 'OK' });
  assert.deepEqual(parseValueText('null'), { type: 'Null' });
  assert.deepEqual(parseValueText('{"x":1,"y":2,"width":3,"height":4}'), uiRect({ x: 1, y: 2, width: 3, height: 4 }));
  assert.deepEqual(parseValueText('{"x":1,"y":2}'), { type: 'Point', value: { x: 1, y: 2 } });
  assert.deepEqual(parseValueText('{"width":3,"height":4}'), { type: 'Size', value: { width: 3, height: 4 } });
  assert.equal(parseValueText('["a",1]').type, 'Array');
  assert.equal(parseValueText('{"a":"b"}').type, 'Object');
  assert.deepEqual(parseValueText('{broken'), { type: 'String', value: '{broken' });
});

test('formatting and parsing a value gives it back with its type', () => {
  const samples = [
    'true',
    '12',
    '-3.25',
    '2.0',
    'hello',
    '{"x":0,"y":0,"width":10,"height":5}',
    '[{"Id":"a","Scale":1.5}]',
  ];
  for (const text of samples) assert.equal(formatValueText(parseValueText(text)), text);
  const value = fromJsonValue({ a: [1, 2.5, 'x', true, null] });
  assert.deepEqual(toJsonValue(value), { a: [1, 2.5, 'x', true, null] });
});

test('the runtime derives Bounds and ActivationPoint aliases as numbers', () => {
  const aliases = deriveAliases('control', 'Bounds', uiRect({ x: 10, y: 20, width: 30.5, height: 40 }));
  assert.deepEqual(
    aliases.map((a) => [a.name, a.value]),
    [
      ['Bounds.X', { type: 'Integer', value: 10 }],
      ['Bounds.Y', { type: 'Integer', value: 20 }],
      ['Bounds.Width', { type: 'Number', value: 30.5 }],
      ['Bounds.Height', { type: 'Integer', value: 40 }],
    ],
  );
  assert.ok(aliases.every((a) => a.derived));
  const point = deriveAliases('control', 'ActivationPoint', { type: 'Point', value: { x: 1, y: 2 } });
  assert.deepEqual(
    point.map((a) => a.name),
    ['ActivationPoint.X', 'ActivationPoint.Y'],
  );
  assert.deepEqual(deriveAliases('control', 'Name', uiString('x')), []);
  const entries = withDerivedAliases([
    { namespace: 'control', name: 'Bounds', value: uiRect({ x: 0, y: 0, width: 1, height: 1 }) },
  ]);
  assert.deepEqual(
    entries.map((e) => e.name),
    ['Bounds', 'Bounds.X', 'Bounds.Y', 'Bounds.Width', 'Bounds.Height'],
  );
  assert.ok(isAliasName('Bounds.X') && !isAliasName('Bounds'));
});

test('namespaces have their URIs and key forms', () => {
  assert.equal(NAMESPACE_URIS.control, 'urn:platynui:control');
  assert.equal(NAMESPACE_URIS.item, 'urn:platynui:item');
  assert.equal(NAMESPACE_URIS.app, 'urn:platynui:app');
  assert.equal(NAMESPACE_URIS.native, 'urn:platynui:native');
  assert.equal(namespaceFromUri('urn:platynui:native'), 'native');
  assert.equal(namespaceFromUri('urn:other'), undefined);
  assert.equal(attributeKey('control', 'Name'), 'Name');
  assert.equal(attributeKey('native', 'Role'), 'native:Role');
  assert.deepEqual(parseAttributeKey('native:Role'), { namespace: 'native', name: 'Role' });
  assert.equal(parseAttributeKey('bogus:Role'), undefined);
});

test('the pattern contract names what is missing or wrong', () => {
  const attrs = new Map<string, unknown>([
    ['Bounds', {}],
    ['IsVisible', true],
    ['IsEnabled', true],
    ['Text', 'x'],
    ['IsReadOnly', true],
  ]);
  assert.deepEqual(checkPatternContract(['Element', 'TextContent'], attrs), []);
  const violations = checkPatternContract(['Focusable', 'TextEditable', 'Teleportable'], attrs);
  assert.deepEqual(
    violations.map((v) => [v.pattern, v.problem, v.attribute]),
    [
      ['Focusable', 'missing-attribute', 'IsFocused'],
      ['TextEditable', 'wrong-value', 'IsReadOnly'],
      ['Teleportable', 'unknown-pattern', undefined],
    ],
  );
});
