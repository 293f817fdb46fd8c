import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DIGIT_HEIGHT, DIGIT_WIDTH, digitBars } from '../digit-bars.js';

const desktop = { x: 0, y: 0, width: 1000, height: 800 };

test('a number becomes seven-segment bars, digit after digit, inside each digit cell', () => {
  assert.equal(digitBars('1', { x: 100, y: 50 }, desktop).length, 2);
  assert.equal(digitBars('8', { x: 100, y: 50 }, desktop).length, 7);
  const twelve = digitBars('12', { x: 100, y: 50 }, desktop);
  assert.equal(twelve.length, 2 + 5);
  const [one, two] = [twelve.slice(0, 2), twelve.slice(2)];
  for (const bar of one) assert.ok(bar.x >= 100 && bar.x + bar.width <= 100 + DIGIT_WIDTH);
  for (const bar of two) assert.ok(bar.x > 100 + DIGIT_WIDTH, 'the second digit sits right of the first');
  for (const bar of twelve) assert.ok(bar.y >= 50 && bar.y + bar.height <= 50 + DIGIT_HEIGHT);
});

test('characters other than digits are skipped and bars are clipped to the desktop', () => {
  assert.deepEqual(digitBars('#.', { x: 10, y: 10 }, desktop), []);
  const clipped = digitBars('7', { x: 995, y: 790 }, desktop);
  assert.ok(clipped.length > 0);
  for (const bar of clipped) assert.ok(bar.x + bar.width <= 1000 && bar.y + bar.height <= 800);
});
