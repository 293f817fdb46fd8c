import assert from 'node:assert/strict';
import { test } from 'node:test';
import fontoxpath from 'fontoxpath';
import { evaluateIntoSink, type ItemSink, type XPathValue } from '../evaluate-core.js';
import type { MemNode } from '../memory-tree.js';
import { treeFromSpec } from './generate.js';

const tree = treeFromSpec([
  {
    role: 'Window',
    attrs: { Name: 'w' },
    kids: [
      { role: 'Button', attrs: { Name: '1', Id: 'a' } },
      { role: 'Button', attrs: { Name: 'abc', Id: 'b' } },
    ],
  },
]);

/** A sink writing down every call it gets. */
class Recorder implements ItemSink<MemNode> {
  calls: string[] = [];
  node(node: MemNode): void {
    this.calls.push(`node ${node.attrs.find((a) => a.localName === 'Name')?.value}`);
  }
  attribute(owner: MemNode, namespaceUri: string | null, localName: string, value: string): void {
    this.calls.push(`attribute ${localName}=${value} of ${owner.attrs.find((a) => a.localName === 'Name')?.value}`);
  }
  value(value: XPathValue, integer?: boolean): void {
    this.calls.push(`value ${JSON.stringify(value)}${integer === undefined ? '' : integer ? ' integer' : ' double'}`);
  }
  reset(): void {
    this.calls.push('reset');
  }
}

function evaluate(xpath: string): { engine: string; calls: string[] } {
  const sink = new Recorder();
  const engine = evaluateIntoSink(() => fontoxpath, tree, xpath, tree.root, sink);
  return { engine, calls: sink.calls };
}

test('the sink gets every item in order, one call each, from either engine', () => {
  assert.deepEqual(evaluate('//Button/@Id'), {
    engine: 'fast',
    calls: ['attribute Id=a of 1', 'attribute Id=b of abc'],
  });
  assert.deepEqual(evaluate("//Window | //Button[@Name='abc']"), { engine: 'fast', calls: ['node w', 'node abc'] });
  assert.deepEqual(evaluate('count(//Button)'), { engine: 'fast', calls: ['value 2 integer'] });
  assert.deepEqual(evaluate("(//Window, 1.5, 'x', true())"), {
    engine: 'fontoxpath',
    calls: ['node w', 'value 1.5 double', 'value "x"', 'value true'],
  });
});

test("when the fast path gives up midway, the sink forgets what it had and gets fontoxpath's answer", () => {
  // Button "1" matches on the fast path; "abc" does not cast to a number there, so fontoxpath answers instead
  // (its `or` never compares "abc" with 1, since the first operand holds).
  assert.deepEqual(evaluate("//Button[@Name = 'abc' or @Name = 1]"), {
    engine: 'fontoxpath',
    calls: ['node 1', 'reset', 'node 1', 'node abc'],
  });
});
