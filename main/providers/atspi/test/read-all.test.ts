// readAll: every attribute of an AT-SPI node at once, as a snapshot with --attrs all reads them. Attributes made from
// one read (extents, relations, text state ...) share it; values are those each attribute's own read() gives; a
// failed read leaves a FailedRead in place of each value made from it, the others stay.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UiValue } from '../../../../shared/model/values.js';
import type { AtspiCalls, ObjectRef } from '../atspi-calls.js';
import type { AttributeOwner, NodeAttribute } from '../attributes.js';
import { beginReadingAll, buildAttributes, FailedRead, readAll } from '../attributes.js';
import type { NodeData } from '../node-data.js';
import { newNodeData } from '../node-data.js';
import { loadedApplication } from './test-application.js';
import { S } from '../states.js';

const IFACES = ['Accessible', 'Component', 'Text', 'Action'].map((name) => `org.a11y.atspi.${name}`);
const PARAGRAPH = 73;

function paragraph(): NodeData {
  const data = newNodeData([':1.5', '/org/a11y/atspi/accessible/7'], loadedApplication(), undefined, {
    role: PARAGRAPH,
    name: '',
    description: '',
    accessibleId: '',
    states: [1 << S.Enabled, 0],
    interfaces: IFACES,
    childCount: 0,
  });
  // As the bulk load leaves them when it was asked for the object attributes.
  data.loadedAttributes = { tag: 'p', display: 'block' };
  return data;
}

/** An application answering each method as below, counting the calls by method; `fail` names methods that reject. */
function application(text: string, fail: ReadonlySet<string> = new Set()) {
  const counts = new Map<string, number>();
  const answers: { [method: string]: (...args: unknown[]) => unknown } = {
    getExtents: () => ({ x: 10, y: 20, width: 101, height: 31 }),
    getRelationSet: () => [{ type: 2, targets: [[':1.5', '/org/a11y/atspi/accessible/3'] as ObjectRef] }],
    getAttributes: () => ({ asked: 'yes' }),
    getActions: () => [{ name: 'click', description: '', keyBinding: '' }],
    getTextState: () => ({ characterCount: [...text].length, caretOffset: -1 }),
    getText: () => text,
    getNSelections: () => 0,
    getTextAttributes: () => ({ 'font-size': '12pt' }),
  };
  const calls = new Proxy({} as AtspiCalls, {
    get:
      (_, method: string) =>
      (...args: unknown[]) => {
        counts.set(method, (counts.get(method) ?? 0) + 1);
        if (fail.has(method)) return Promise.reject(new Error(`${method} refused`));
        const answer = answers[method];
        return answer ? Promise.resolve(answer(...args)) : Promise.reject(new Error(`unexpected ${method}`));
      },
  });
  return { calls, counts };
}

function owner(data: NodeData, calls: AtspiCalls): AttributeOwner & { list(): NodeAttribute[] } {
  const node = {
    attributeGeneration: 0,
    memo: new Map<string, Promise<unknown>>(),
    data,
    calls,
    isSecure: false,
    currentAttributes: () => Promise.resolve(node.list()),
    list: (): NodeAttribute[] =>
      buildAttributes(
        node,
        (error) => {
          throw error;
        },
        undefined,
      ),
  };
  return node;
}

const byKey = (list: readonly NodeAttribute[], values: ReadonlyArray<UiValue | FailedRead>) =>
  new Map(list.map((attribute, i) => [`${attribute.namespace}:${attribute.name}`, values[i]]));

test('readAll makes each shared read once and gives what each attribute read on its own gives', async () => {
  const all = application('Hello \u{1F600}');
  const node = owner(paragraph(), all.calls);
  const list = node.list();
  const read = readAll(node, list);
  assert.ok(read instanceof Promise);
  const values = byKey(list, await read);
  // One call per shared read; the object attributes came with the bulk load.
  assert.deepEqual(Object.fromEntries(all.counts), {
    getExtents: 1,
    getRelationSet: 1,
    getActions: 1,
    getTextState: 1,
    getText: 1,
    getNSelections: 1,
    getTextAttributes: 1,
  });
  assert.deepEqual(values.get('control:Bounds'), { type: 'Rect', value: { x: 10, y: 20, width: 101, height: 31 } });
  assert.deepEqual(values.get('control:ActivationPoint'), { type: 'Point', value: { x: 60, y: 35 } });
  assert.deepEqual(values.get('native:Accessible.Attributes'), {
    type: 'Object',
    value: { tag: { type: 'String', value: 'p' }, display: { type: 'String', value: 'block' } },
  });
  assert.deepEqual(values.get('native:Text.CharacterCount'), { type: 'Integer', value: 7 });
  assert.deepEqual(values.get('control:SelectionStart'), { type: 'Integer', value: -1 });

  // The same values, attribute by attribute on a node of its own.
  const one = application('Hello \u{1F600}');
  const single = owner(paragraph(), one.calls);
  const singleList = single.list();
  const each = await Promise.all(singleList.map((attribute) => attribute.read()));
  assert.deepEqual([...values.values()], each);
});

test('with the text state read first, an empty text needs no GetText or GetNSelections; a failed read fails only the values made from it', async () => {
  const { calls, counts } = application('', new Set(['getRelationSet']));
  const node = owner(paragraph(), calls);
  const list = node.list();
  // As AtspiNode.readAllAttributes does: the text state goes out first.
  beginReadingAll(node);
  const values = byKey(list, await readAll(node, list));
  assert.equal(counts.get('getText'), undefined);
  assert.equal(counts.get('getNSelections'), undefined);
  assert.deepEqual(values.get('control:Text'), { type: 'String', value: '' });
  for (const name of ['control:LabelledBy', 'control:LabelFor', 'control:DescribedBy', 'native:Accessible.Relations']) {
    const value = values.get(name);
    assert.ok(value instanceof FailedRead, name);
    assert.equal(value.unmapped, true);
    assert.match(String(value.error), /getRelationSet refused/);
  }
  assert.deepEqual(values.get('native:Action.Names'), { type: 'Array', value: [{ type: 'String', value: 'click' }] });
  // Failed reads are not remembered: the next read asks again.
  await readAll(node, list);
  assert.equal(counts.get('getRelationSet'), 2);
  assert.equal(counts.get('getExtents'), 1);
});
