import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InspectorError } from '../../model/errors.js';
import { evaluateOverTree } from '../evaluate.js';
import { checkXPathNesting, MAX_XPATH_NESTING } from '../nesting.js';
import { treeFromSpec } from './generate.js';

const tree = treeFromSpec([{ role: 'Window', attrs: { Name: 'w' } }]);
const evaluate = (xpath: string) => evaluateOverTree(tree, xpath, tree.root);

function syntaxErrorOf(run: () => unknown): InspectorError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof InspectorError, `not an InspectorError: ${String(error)}`);
    assert.equal(error.code, 'xpath-syntax');
    return error;
  }
  assert.fail('no error');
}

test('10,000 nested parentheses are a syntax error at the first bracket too deep, not a stack overflow', () => {
  const xpath = `${'('.repeat(10_000)}1${')'.repeat(10_000)}`;
  const error = syntaxErrorOf(() => evaluate(xpath));
  assert.match(
    error.message,
    new RegExp(`^Brackets nest deeper than ${MAX_XPATH_NESTING} levels at column ${MAX_XPATH_NESTING + 1}$`),
  );
  assert.deepEqual(error.position, { line: 1, column: MAX_XPATH_NESTING + 1, offset: MAX_XPATH_NESTING });
  // Brackets of every kind count; the position follows lines.
  const mixed = `\n${'[('.repeat(60)}1${')]'.repeat(60)}`;
  assert.equal(syntaxErrorOf(() => checkXPathNesting(mixed)).position?.line, 2);
});

test('nesting up to the limit evaluates, and brackets in strings and comments do not count', () => {
  const deepest = `${'('.repeat(MAX_XPATH_NESTING)}1${')'.repeat(MAX_XPATH_NESTING)}`;
  assert.deepEqual(evaluate(deepest).items, [{ kind: 'value', value: 1, integer: true }]);
  const inString = `string-length('${'('.repeat(500)}')`;
  assert.deepEqual(evaluate(inString).items, [{ kind: 'value', value: 500, integer: true }]);
  const inComment = `(: ${'(['.repeat(300)} (: nested :) :) count(/*)`;
  assert.deepEqual(evaluate(inComment).items, [{ kind: 'value', value: 1, integer: true }]);
});

test('an expression nested deeply without brackets is a syntax error with a position, not a stack overflow', () => {
  const xpath = `${'if (1) then '.repeat(5_000)}1${' else 2'.repeat(5_000)}`;
  const error = syntaxErrorOf(() => evaluate(xpath));
  assert.match(error.message, /^The expression is nested too deeply for the XPath engine \(at column \d+\)$/);
});
