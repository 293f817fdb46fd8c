// The runtime reads held attribute values through ProviderAttribute.peek (no promise per value) and falls back to
// read() where the provider says undefined; secrets stay out either way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UiValue } from '../../../shared/model/values.js';
import { toJsonValue, uiBool, uiString } from '../../../shared/model/values.js';
import { RuntimeNode } from '../node.js';
import type { ProviderAttribute, ProviderNode } from '../../core/provider.js';

interface Counted {
  reads: number;
}

function attribute(name: string, value: UiValue, held: boolean, counter: Counted): ProviderAttribute {
  return {
    namespace: 'control',
    name,
    read: () => {
      counter.reads++;
      return Promise.resolve(value);
    },
    peek: () => (held ? value : undefined),
  };
}

function source(attributes: ProviderAttribute[], isSecure = false): ProviderNode {
  return {
    runtimeId: 'test:1',
    namespace: 'control',
    role: 'Edit',
    name: 'Field',
    id: undefined,
    isSecure,
    children: () => Promise.resolve([]),
    attributes: () => Promise.resolve(attributes),
    supportedPatterns: () => Promise.resolve([]),
    performAction: () => Promise.resolve(),
    isValid: () => Promise.resolve(true),
    invalidate: () => undefined,
  };
}

const owner = { adopt: () => assert.fail('no children'), countFetched: () => undefined, invalidated: () => undefined };

test('attributesNamed and attributes take held values without read(), and read() the others', async () => {
  const counter: Counted = { reads: 0 };
  const node = new RuntimeNode(
    owner,
    source([
      attribute('IsEnabled', uiBool(true), true, counter),
      attribute('Bounds', uiString('lazy'), false, counter),
      attribute('Description', uiString('held'), true, counter),
    ]),
    undefined,
    'Test',
  );
  assert.deepEqual(await node.attributesNamed('IsEnabled'), [
    { namespace: 'control', name: 'IsEnabled', value: uiBool(true) },
  ]);
  assert.equal(counter.reads, 0);
  assert.deepEqual(await node.attributesNamed('Bounds'), [
    { namespace: 'control', name: 'Bounds', value: uiString('lazy') },
  ]);
  assert.equal(counter.reads, 1);
  const all = await node.attributes();
  const names = all.map((entry) => `${entry.name}=${JSON.stringify(toJsonValue(entry.value))}`);
  for (const expected of ['IsEnabled=true', 'Bounds="lazy"', 'Description="held"']) assert.ok(names.includes(expected));
  // Bounds was read once (the runtime keeps read values); the held ones never.
  assert.equal(counter.reads, 1);
});

test('a secure node: a provider peek of a secret is never asked for nor served', async () => {
  const counter: Counted = { reads: 0 };
  let peeks = 0;
  const text: ProviderAttribute = {
    namespace: 'control',
    name: 'Text',
    read: () => assert.fail('a secret is never read'),
    peek: () => {
      peeks++;
      return uiString('hunter2');
    },
  };
  const node = new RuntimeNode(
    owner,
    source([text, attribute('IsSecure', uiBool(true), true, counter)], true),
    undefined,
    'Test',
  );
  assert.deepEqual(await node.attributesNamed('Text'), []);
  const all = await node.attributes();
  assert.ok(!JSON.stringify(all).includes('hunter2'));
  assert.ok(all.some((entry) => entry.name === 'IsSecure'));
  assert.equal(peeks, 0);
});

test('an attribute list the provider holds (peekAttributes) is taken without attributes()', async () => {
  const counter: Counted = { reads: 0 };
  const list = [attribute('IsEnabled', uiBool(false), true, counter)];
  const node = new RuntimeNode(
    owner,
    {
      ...source([]),
      attributes: () => assert.fail('the held list is used'),
      peekAttributes: () => list,
    },
    undefined,
    'Test',
  );
  assert.deepEqual(await node.attributesNamed('IsEnabled'), [
    { namespace: 'control', name: 'IsEnabled', value: uiBool(false) },
  ]);
  assert.equal(counter.reads, 0);
});

test('peekAttributesNamed answers what attributesNamed would, without a promise; undefined where it must ask', async () => {
  const counter: Counted = { reads: 0 };
  const held = [
    attribute('IsEnabled', uiBool(true), true, counter),
    attribute('Description', uiString('held'), true, counter),
    { ...attribute('Role', uiString('Edit'), true, counter), namespace: 'native' as const },
  ];
  let idLoaded = false;
  const node = new RuntimeNode(
    owner,
    {
      ...source([]),
      id: 'field-id',
      peekAttributes: () => held,
      loadId: () => {
        idLoaded = true;
        return Promise.resolve();
      },
    },
    undefined,
    'Test',
  );
  const names = ['Name', 'Id', 'IsEnabled', 'Role', 'Technology'];
  // The provider defers ids: nothing is answered until loadId() made the id definitive.
  assert.equal(node.peekAttributesNamed(names), undefined);
  await node.loadId();
  assert.ok(idLoaded);
  // A provider that says its id is definitive (idLoaded) needs no loadId() first.
  let providerLoaded = false;
  const known = new RuntimeNode(
    owner,
    {
      ...source([]),
      peekAttributes: () => held,
      loadId: () => Promise.resolve(),
      get idLoaded() {
        return providerLoaded;
      },
    },
    undefined,
    'Test',
  );
  assert.equal(known.idDefinitive, false);
  assert.equal(known.peekAttributesNamed(['IsEnabled']), undefined);
  providerLoaded = true;
  assert.equal(known.idDefinitive, true);
  assert.deepEqual(known.peekAttributesNamed(['IsEnabled']), [
    { namespace: 'control', name: 'IsEnabled', value: uiBool(true) },
  ]);
  const peeked = node.peekAttributesNamed(names);
  const asked = (await Promise.all(names.map((name) => node.attributesNamed(name)))).flat();
  assert.deepEqual(peeked, asked);
  assert.deepEqual(
    peeked?.map((entry) => `${entry.namespace}:${entry.name}`),
    ['control:Name', 'control:Id', 'control:IsEnabled', 'native:Role', 'control:Technology'],
  );
  assert.equal(counter.reads, 0);
  // A bounds alias (Bounds.X ...) is computed from Bounds by a call: undefined, in a short list and in a long one
  // (whose answer is kept per list), asked twice; the same long list without the alias is answered.
  const withAlias = [...names, 'Bounds.Width'];
  for (const list of [['Bounds.X'], withAlias, withAlias]) assert.equal(node.peekAttributesNamed(list), undefined);
  assert.deepEqual(node.peekAttributesNamed(names), peeked);
  // A value the provider does not hold, or a runtime attribute that needs a call: undefined, never a guess.
  const lazy = new RuntimeNode(
    owner,
    { ...source([]), peekAttributes: () => [attribute('Bounds', uiString('lazy'), false, counter)] },
    undefined,
    'Test',
  );
  assert.equal(lazy.peekAttributesNamed(['Bounds']), undefined);
  assert.equal(lazy.peekAttributesNamed(['SupportedPatterns']), undefined);
  assert.deepEqual(lazy.peekAttributesNamed(['Name']), [
    { namespace: 'control', name: 'Name', value: uiString('Field') },
  ]);
  // After an invalidation the id must be made definitive again.
  node.invalidate();
  assert.equal(node.peekAttributesNamed(names), undefined);
});

test('attributesWhere reads only the wanted names and answers what attributes() holds for them', async () => {
  const counter: Counted = { reads: 0 };
  const provided = () =>
    source([
      attribute('Bounds', uiString('{"x":1}'), false, counter),
      attribute('Description', uiString('read'), false, counter),
      attribute('HelpText', uiString('held'), true, counter),
      { ...attribute('Role', uiString('push button'), false, counter), namespace: 'native' },
    ]);
  const wanted = (namespace: string, name: string) =>
    name !== 'Bounds' && !(namespace === 'control' && name === 'Role');
  const some = await new RuntimeNode(owner, provided(), undefined, 'Test').attributesWhere(wanted);
  assert.equal(counter.reads, 2, 'Description and the native Role are read; Bounds is not');
  const full = await new RuntimeNode(owner, provided(), undefined, 'Test').attributes();
  const key = (entry: { namespace: string; name: string }) => `${entry.namespace}:${entry.name}`;
  assert.deepEqual(
    some.map(key).sort(),
    full
      .filter((entry) => !entry.derived && wanted(entry.namespace, entry.name))
      .map(key)
      .sort(),
  );
  assert.ok(
    some.some((entry) => key(entry) === 'control:Name'),
    "the runtime's own Name",
  );
  assert.ok(
    some.some((entry) => key(entry) === 'control:HelpText'),
    'a held value',
  );
});

test('attributesWhere leaves out a name whose read fails and keeps the others', async () => {
  const counter: Counted = { reads: 0 };
  const failing: ProviderAttribute = {
    namespace: 'control',
    name: 'Description',
    read: () => Promise.reject(new Error('gone')),
  };
  const node = new RuntimeNode(
    owner,
    source([failing, attribute('HelpText', uiString('kept'), false, counter)]),
    undefined,
    'Test',
  );
  const entries = await node.attributesWhere(() => true);
  assert.ok(!entries.some((entry) => entry.name === 'Description'));
  assert.ok(entries.some((entry) => entry.name === 'HelpText'));
});
