import assert from 'node:assert/strict';
import { test } from 'node:test';
import '../../backends/mock.js';
import { chooseBackends } from '../registry.js';

test('only mock providers means the mock platform; a named platform wins', () => {
  assert.deepEqual(chooseBackends({ providers: ['mock'] }), { providers: ['mock'], platform: 'mock' });
  assert.deepEqual(chooseBackends({ providers: ['mock'], platform: 'x11' }), { providers: ['mock'], platform: 'x11' });
  assert.deepEqual(chooseBackends({ providers: ['mock'], platform: 'none' }), {
    providers: ['mock'],
    platform: 'none',
  });
});

test('a provider without a paired platform leaves the platform to detection', () => {
  assert.deepEqual(chooseBackends({}), { providers: [], platform: undefined });
  assert.deepEqual(chooseBackends({ providers: ['mock', 'other'] }), {
    providers: ['mock', 'other'],
    platform: undefined,
  });
});

test("a provider's own options name it: the mock file brings the mock provider (and so its platform)", () => {
  assert.deepEqual(chooseBackends({ backendOptions: { mock: { file: 'a.xml' } } }), {
    providers: ['mock'],
    platform: 'mock',
  });
  assert.deepEqual(chooseBackends({ providers: ['mock'], backendOptions: { mock: { file: 'a.xml' } } }).providers, [
    'mock',
  ]);
  assert.deepEqual(chooseBackends({ backendOptions: { mock: { file: undefined } } }).providers, []);
});
