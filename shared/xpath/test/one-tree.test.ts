import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InspectorError } from '../../model/errors.js';
import { evaluateOverTree } from '../evaluate.js';
import type { MemNode } from '../memory-tree.js';
import { allNodes, treeFromSpec } from './generate.js';

// Application A lists the windows w1 and w2, B lists w3; all three are also the document's children.
const tree = treeFromSpec([
  { role: 'app:Application', attrs: { Name: 'A' }, aliases: [2, 3] },
  { role: 'app:Application', attrs: { Name: 'B' }, aliases: [4] },
  { role: 'Window', attrs: { Name: 'w1' }, kids: [{ role: 'Button', attrs: { Name: 'OK' } }] },
  { role: 'Window', attrs: { Name: 'w2' }, kids: [{ role: 'Button', attrs: { Name: 'Cancel' } }] },
  { role: 'Window', attrs: { Name: 'w3' }, kids: [{ role: 'Button', attrs: { Name: 'OK' } }] },
]);
const nodes = allNodes(tree);
const applicationA = nodes.find((n) => n.localName === 'Application')!;

function names(xpath: string, context: MemNode = tree.root): { names: string[]; engine: string } {
  const { items, engine } = evaluateOverTree(tree, xpath, context);
  return {
    engine,
    names: items.map((item) =>
      item.kind === 'node'
        ? (item.node.attrs.find((a) => a.localName === 'Name')?.value ?? '#document')
        : String(item.kind === 'value' ? item.value : item.value),
    ),
  };
}

function refusal(xpath: string, context: MemNode = tree.root): InspectorError {
  try {
    evaluateOverTree(tree, xpath, context);
  } catch (error) {
    assert.ok(error instanceof InspectorError, String(error));
    return error;
  }
  assert.fail(`${xpath} was answered`);
}

test('fontoxpath answers queries about applications that do not look below them, as the fast path does', () => {
  // matches() is outside the fast path's subset: fontoxpath answers these.
  assert.deepEqual(names("/Window[matches(@Name, 'w3')] | //app:Application[matches(@Name, 'B')]"), {
    engine: 'fontoxpath',
    names: ['B', 'w3'],
  });
  assert.deepEqual(names("//Button[matches(@Name, '^OK$')]"), { engine: 'fontoxpath', names: ['OK', 'OK'] });
  assert.deepEqual(names("//*[matches(@Name, '^w')]").names, ['w1', 'w2', 'w3']);
  assert.deepEqual(names("count(//node()[matches(@Name, 'OK|Cancel')])").names, ['3']);
  assert.deepEqual(names("//app:Application[matches(@Name, 'A')]/following-sibling::*[1]").names, ['B']);
  // The same queries in the fast path's subset give the same answers.
  assert.deepEqual(names("/Window[@Name = 'w3'] | //app:Application[@Name = 'B']"), {
    engine: 'fast',
    names: ['B', 'w3'],
  });
  assert.deepEqual(names("//Button[@Name = 'OK']").names, ['OK', 'OK']);
});

test('a step below an application is answered by the fast path and refused by fontoxpath, naming the step', () => {
  assert.deepEqual(names("app:Application[@Name = 'A']//Button"), { engine: 'fast', names: ['OK', 'Cancel'] });
  const cases: Array<[string, string, number]> = [
    ["app:Application[matches(@Name, 'A')]//Button", 'descendant-or-self', 39],
    ["//app:Application[matches(@Name, 'A')]/Window", 'child', 40],
    ["let $a := //app:Application return $a/Window[matches(@Name, '1')]", 'child', 39],
    ["for-each(//app:Application, function($a) { $a//Button[matches(@Name, 'O')] })", 'descendant-or-self', 48],
    ["//app:Application[has-children(.) and matches(@Name, 'A')]", 'has-children', 19],
  ];
  for (const [xpath, what, column] of cases) {
    const error = refusal(xpath);
    assert.equal(error.code, 'xpath-evaluation', xpath);
    assert.ok(error.message.includes(what), `${xpath}: ${error.message}`);
    assert.ok(error.message.includes(`line 1, column ${column}`), `${xpath}: ${error.message}`);
    assert.deepEqual(error.position, { line: 1, column, offset: column - 1 }, xpath);
  }
});

test('the context node counts: below an application refused, below a window answered', () => {
  const error = refusal(".//Button[matches(@Name, 'O')]", applicationA);
  assert.equal(error.code, 'xpath-evaluation');
  const window = nodes.find((n) => n.attrs.some((a) => a.value === 'w2'))!;
  assert.deepEqual(names(".//Button[matches(@Name, 'C')]", window).names, ['Cancel']);
});

test('without applications listing windows nothing is refused', () => {
  const plain = treeFromSpec([
    { role: 'app:Application', attrs: { Name: 'A' } },
    { role: 'Window', attrs: { Name: 'w1' }, kids: [{ role: 'Button', attrs: { Name: 'OK' } }] },
  ]);
  const { items } = evaluateOverTree(plain, "//app:Application[matches(@Name, 'A')]//*", plain.root);
  assert.deepEqual(items, []);
});
