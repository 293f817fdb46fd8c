import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InspectorError } from '../../model/errors.js';
import { evaluateOverTree } from '../evaluate.js';
import { treeFromSpec } from './generate.js';

const tree = treeFromSpec([{ role: 'Window', attrs: { Name: 'w' } }]);

function errorOf(xpath: string): InspectorError {
  try {
    evaluateOverTree(tree, xpath, tree.root);
  } catch (error) {
    assert.ok(error instanceof InspectorError, String(error));
    return error;
  }
  assert.fail(`${xpath} evaluated`);
}

test('syntax errors are told in plain words with the column where the problem is', () => {
  const cases: Array<[string, string, number]> = [
    ['//Button[@Name=]', "Expected a value after '=' at column 16", 16],
    ["//Button[@Name = 'a' and]", "Expected a value after 'and' at column 25", 25],
    ['1 +', "Expected a value after '+' at column 4", 4],
    ['//Button[', "The '[' at column 9 is never closed", 9],
    ['count(//Button', "The '(' at column 6 is never closed", 6],
    ["//Button[@Name='x']]", "Unexpected ']' at column 20", 20],
    ["//Button[@Name='x')", "Expected ']' to close the '[' at column 9, found ')' at column 19", 19],
    ["'abc", 'The string that starts at column 1 is never closed', 1],
    ['//Button[(: note', 'The comment that starts at column 10 is never closed', 10],
    ['//Button/@', "Expected an attribute name after '@' at column 11", 11],
    ['//Button//', "Expected a step after '//' at column 11", 11],
    ['//Button[]', "Expected a condition inside '[]' at column 10", 10],
    ["//Button[@Name=='x']", "'==' is not an XPath operator (at column 15); compare with '='", 15],
    ["//Button[@Name='x' && @Id='y']", "'&&' is not an XPath operator (at column 20); write 'and'", 20],
    [
      "//Button[@Name='a' adn @Id='b']",
      "Unexpected 'adn' at column 20; an operator such as 'and', '=' or '/' is missing before it",
      20,
    ],
    [
      "//Button[@Name='x'] 3",
      "Unexpected '3' at column 21; an operator such as 'and', '=' or '/' is missing before it",
      21,
    ],
    ['a;b', "Unexpected ';' at column 2", 2],
  ];
  for (const [xpath, message, column] of cases) {
    const error = errorOf(xpath);
    assert.equal(error.code, 'xpath-syntax', xpath);
    assert.equal(error.message, message, xpath);
    assert.equal(error.position?.column, column, xpath);
  }
});

test('unknown functions, prefixes and variables are named, with a suggestion where one is close', () => {
  assert.equal(
    errorOf("//Button[contain(@Name,'x')]").message,
    'Unknown function contain() at column 10; did you mean contains()?',
  );
  assert.equal(
    errorOf('//Button[strts-with(@Name,"O")]').message,
    'Unknown function strts-with() at column 10; did you mean starts-with()?',
  );
  assert.equal(errorOf('string-length(1,2,3)').message, 'string-length() takes 0 or 1 arguments, not 3 (at column 1)');
  assert.equal(errorOf('abs()').message, 'abs() takes 1 argument, not 0 (at column 1)');
  assert.equal(
    errorOf('foo:Bar').message,
    "Unknown namespace prefix 'foo' at column 1 (known prefixes: control, item, app, native)",
  );
  assert.equal(errorOf('$x').message, 'Unknown variable $x at column 1');
});

test("no message carries the engine's raw text: no expected-token lists, no Q{uri} names, no error codes", () => {
  for (const xpath of [
    '//Button[@Name=]',
    '(1,2',
    "//Button[contain(@Name,'x')]",
    "xs:integer('a')",
    "1 + 'a'",
    '//*[',
    'map:nope(1)',
  ]) {
    const { message } = errorOf(xpath);
    assert.doesNotMatch(message, /Q\{|XP[A-Z]{2}\d{4}|FO[A-Z]{2}\d{4}|validate|\\u|Expected -/, `${xpath}: ${message}`);
    assert.match(message, /column \d+/, xpath);
  }
  assert.equal(errorOf("1 + 'a'").message, "'+' cannot combine xs:integer and xs:string (at column 1)");
  assert.equal(errorOf("1 + 'a'").code, 'xpath-type');
});

test('an expression over several lines names line and column', () => {
  const error = errorOf('//Window\n  [@Name=]');
  assert.equal(error.message, "Expected a value after '=' at line 2, column 10");
  assert.deepEqual(error.position, { line: 2, column: 10, offset: 18 });
});

test('valid expressions the checks could mistake are left to the engine', () => {
  for (const xpath of [
    '/',
    '(/)',
    '- 1',
    '2 * 3',
    '//Window/*',
    'count(//*) * 2',
    "map:get(map{'a':1}, 'a')",
    'for $x in //Window return $x/@Name',
    'if (//Window) then 1 else 2',
    '//Window[1] instance of element()',
    '//Window[not(@Name)]',
  ]) {
    assert.doesNotThrow(() => evaluateOverTree(tree, xpath, tree.root), xpath);
  }
});
