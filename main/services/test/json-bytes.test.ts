import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../../shared/random.js';
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
  type UiValue,
} from '../../../shared/model/values.js';
import { JsonBytes } from '../json-bytes.js';

function bytesOf(write: (out: JsonBytes) => void): { bytes: Buffer; chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  const out = new JsonBytes((chunk) => chunks.push(Buffer.from(chunk)));
  write(out);
  out.flush();
  return { bytes: Buffer.concat(chunks), chunks };
}

const random = seededRandom(20261206);
/** Characters of every kind JSON.stringify treats apart: escapes, ASCII, two- and three-byte UTF-8, pairs, lone halves. */
const PIECES = ['a', 'Z', ' ', '"', '\\', '\n', '\t', '\u0000', '\u001f', '\u007f', 'é', 'ß', '€', '\u2028', '\ufffc'];
const PIECES_WITH_SURROGATES = [...PIECES, '😀', '\ud800', '\udfff', '\udbff\udfff'];

function randomText(pieces: readonly string[]): string {
  let text = '';
  const length = Math.floor(random() * 12);
  for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
  return text;
}

test('strings are written as the UTF-8 of JSON.stringify, escapes and lone surrogates included', () => {
  const texts = ['', 'plain', 'x'.repeat(5000), '😀'.repeat(700), 'ends in a high half \ud83d', '\udc00 starts low'];
  for (let i = 0; i < 2000; i++) texts.push(randomText(i % 2 === 0 ? PIECES : PIECES_WITH_SURROGATES));
  for (const text of texts) {
    const { bytes } = bytesOf((out) => out.string(text));
    assert.equal(bytes.toString('utf8'), JSON.stringify(text), JSON.stringify(text));
    assert.ok(bytes.equals(Buffer.from(JSON.stringify(text), 'utf8')));
  }
});

test('numbers are written as JSON.stringify writes them', () => {
  const numbers = [0, -0, 1, -1, 9, 10, 99, 100, 2 ** 31, -(2 ** 31), 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1e21, 1.5];
  numbers.push(-0.125, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e-7, 123456789012345);
  for (let i = 0; i < 1000; i++) numbers.push(Math.floor((random() - 0.5) * 10 ** Math.floor(random() * 17)));
  for (const value of numbers) {
    assert.equal(bytesOf((out) => out.number(value)).bytes.toString('utf8'), JSON.stringify(value), String(value));
  }
});

function randomValue(depth: number): UiValue {
  const pick = Math.floor(random() * (depth > 2 ? 7 : 10));
  switch (pick) {
    case 0:
      return uiString(randomText(PIECES_WITH_SURROGATES));
    case 1:
      return uiBool(random() < 0.5);
    case 2:
      return uiInteger(Math.floor((random() - 0.5) * 1e6));
    case 3:
      return uiNumber(random() < 0.2 ? Number.NaN : (random() - 0.5) * 100);
    case 4:
      return uiNull();
    case 5:
      return uiRect({ x: Math.floor(random() * 100), y: -3, width: 0.5, height: Number.POSITIVE_INFINITY });
    case 6:
      return random() < 0.5 ? uiPoint({ x: 1, y: -0 }) : uiSize({ width: 2, height: 3 });
    case 7:
      return uiArray(Array.from({ length: Math.floor(random() * 4) }, () => randomValue(depth + 1)));
    default: {
      const object: { [key: string]: UiValue } = {};
      const keys = ['b', 'a', '10', '2', 'é "k"', '', 'x\ny'];
      for (let i = Math.floor(random() * 4); i > 0; i--) {
        object[keys[Math.floor(random() * keys.length)] as string] = randomValue(depth + 1);
      }
      return uiObject(object);
    }
  }
}

test('typed values are written as JSON.stringify of their plain form, indented at any depth or compact', () => {
  const values: UiValue[] = [uiArray([]), uiObject({}), uiRect({ x: 1, y: 2, width: 3, height: 4 })];
  // A key the plain copy cannot have as its own (assigning __proto__ sets the prototype): left out as there.
  values.push(uiObject(Object.defineProperty({ a: uiNull() }, '__proto__', { value: uiNull(), enumerable: true })));
  for (let i = 0; i < 1500; i++) values.push(randomValue(0));
  for (const value of values) {
    const plain = toJsonValue(value);
    const compact = bytesOf((out) => out.value(value, -1)).bytes.toString('utf8');
    assert.equal(compact, JSON.stringify(plain));
    for (const indent of [0, 2, 14]) {
      const pretty = bytesOf((out) => out.value(value, indent)).bytes.toString('utf8');
      assert.equal(pretty, JSON.stringify(plain, null, 2).replace(/\n/g, `\n${' '.repeat(indent)}`));
    }
  }
});

test('chunks of about a megabyte, none ending inside a character; a longer text in a chunk of its own', () => {
  const texts = ['€'.repeat(200_000), 'x'.repeat(300_000), '😀'.repeat(150_000), 'y'.repeat(2_000_000), 'end'];
  const { bytes, chunks } = bytesOf((out) => {
    for (const text of texts) {
      out.string(text);
      out.newline(30);
    }
  });
  const expected = texts.map((text) => `${JSON.stringify(text)}\n${' '.repeat(30)}`).join('');
  assert.ok(bytes.equals(Buffer.from(expected, 'utf8')));
  assert.ok(chunks.length >= 3, `${chunks.length} chunks`);
  for (const chunk of chunks) {
    assert.ok(chunk.length <= 1 << 20 || chunk.length > 2_000_000, `a chunk of ${chunk.length} bytes`);
    assert.equal(Buffer.from(chunk.toString('utf8'), 'utf8').length, chunk.length, 'a chunk ends inside a character');
  }
});
