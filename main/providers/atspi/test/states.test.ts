import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasState, S, stateNames, stateNumber, withState } from '../states.js';

test('state sets decode both words', () => {
  // enabled (8), sensitive (24), showing (25), visible (30) in word 0; read-only (43) in word 1.
  const states = [(1 << 8) | (1 << 24) | (1 << 25) | (1 << 30), 1 << (43 - 32)];
  assert.equal(hasState(states, S.Enabled), true);
  assert.equal(hasState(states, S.Focused), false);
  assert.equal(hasState(states, S.ReadOnly), true);
  assert.deepEqual(stateNames(states), ['enabled', 'sensitive', 'showing', 'visible', 'read-only']);
});

test('state changes flip one bit', () => {
  const on = withState([0, 0], S.Focused, true);
  assert.equal(hasState(on, S.Focused), true);
  assert.equal(hasState(withState(on, S.Focused, false), S.Focused), false);
  const high = withState([0, 0], S.Checkable, true);
  assert.deepEqual(high, [0, 1 << (S.Checkable - 32)]);
  assert.equal(stateNumber('visible'), S.Visible);
  // Bit 31 stays an unsigned word.
  assert.equal(withState([0, 0], 31, true)[0], 2 ** 31);
});
