// Held attribute values (ProviderAttribute.peek) of AT-SPI nodes: served without a call while the node is usable and
// unchanged, never for a stale, invalid or changed node (read() refreshes then), never a secret.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AttributeNames as A, SECRET_ATTRIBUTE_NAMES } from '../../../../shared/model/attributes.js';
import type { UiValue } from '../../../../shared/model/values.js';
import { toJsonValue } from '../../../../shared/model/values.js';
import type { AtspiCalls } from '../atspi-calls.js';
import type { AttributeOwner, NodeAttribute } from '../attributes.js';
import { buildAttributes, HeldAttribute } from '../attributes.js';
import type { NodeData } from '../node-data.js';
import { newNodeData } from '../node-data.js';
import { loadedApplication } from './test-application.js';
import { ATSPI_ROLE } from '../roles.js';
import { S } from '../states.js';

const ACC = 'org.a11y.atspi.Accessible';
const COMPONENT = 'org.a11y.atspi.Component';
const TEXT = 'org.a11y.atspi.Text';
const VALUE = 'org.a11y.atspi.Value';
const PUSH_BUTTON = 43;

const bits = (...states: number[]) => {
  const out = [0, 0];
  for (const state of states) (out[state >> 5] as number) |= 1 << (state & 31);
  return out;
};

/** Every call counted: a held value must need none. */
function countingCalls(): { calls: AtspiCalls; count(): number } {
  let count = 0;
  const calls = new Proxy({} as AtspiCalls, {
    get: () => () => {
      count++;
      return Promise.resolve('');
    },
  });
  return { calls, count: () => count };
}

/** A node as its attributes see it; currentAttributes rebuilds the list like AtspiNode does after a refresh. */
class Owner implements AttributeOwner {
  attributeGeneration = 0;
  memo = new Map<string, Promise<unknown>>();
  refreshes = 0;
  constructor(
    readonly data: NodeData,
    readonly calls: AtspiCalls,
    readonly isSecure = false,
    /** What a refresh of the header reads (the application's current data). */
    private readonly fresh: Partial<NodeData> = {},
  ) {}
  list(): NodeAttribute[] {
    return buildAttributes(
      this,
      (error) => {
        throw error;
      },
      undefined,
    );
  }
  currentAttributes(): Promise<readonly NodeAttribute[]> {
    if (this.data.invalid) return Promise.reject(new Error('stale-node'));
    if (this.data.stale) {
      this.refreshes++;
      Object.assign(this.data, this.fresh, { stale: false });
    }
    return Promise.resolve(this.list());
  }
}

function button(states = bits(S.Enabled, S.Showing, S.Visible)): NodeData {
  return newNodeData([':1.5', '/org/a11y/atspi/accessible/ok'], loadedApplication(), undefined, {
    role: PUSH_BUTTON,
    name: 'OK',
    description: 'confirms',
    accessibleId: 'ok-button',
    states,
    interfaces: [ACC, COMPONENT],
    childCount: 0,
  });
}

const find = (list: readonly NodeAttribute[], name: string, namespace = 'control') =>
  list.find((attribute) => attribute.namespace === namespace && attribute.name === name) as NodeAttribute;

test('header values are held: peek serves them without a call or a promise; call-backed ones say undefined', () => {
  const { calls, count } = countingCalls();
  const owner = new Owner(button(), calls);
  const list = owner.list();
  const peeked = (name: string, namespace?: string) => find(list, name, namespace).peek();
  assert.deepEqual(peeked(A.Role), { type: 'String', value: 'Button' });
  assert.deepEqual(peeked(A.Name), { type: 'String', value: 'OK' });
  assert.deepEqual(peeked(A.Description), { type: 'String', value: 'confirms' });
  assert.deepEqual(peeked(A.Id), { type: 'String', value: 'ok-button' });
  assert.deepEqual(peeked(A.IsEnabled), { type: 'Bool', value: true });
  assert.deepEqual(peeked(A.IsVisible), { type: 'Bool', value: true });
  assert.deepEqual(peeked(A.IsFocused), { type: 'Bool', value: false });
  assert.deepEqual(peeked('Role', 'native'), { type: 'String', value: 'push button' });
  assert.deepEqual(toJsonValue(peeked('Accessible.States', 'native') as UiValue), ['enabled', 'showing', 'visible']);
  // Bounds needs a call: not held.
  assert.equal(peeked(A.Bounds), undefined);
  assert.equal(count(), 0);
  // Shared constants: every enabled node's IsEnabled is the same value object (no allocation per node).
  const other = new Owner(button(), calls).list();
  assert.equal(find(other, A.IsEnabled).peek(), peeked(A.IsEnabled));
});

test('a list built for some names holds those attributes of the whole list, in its order, and no other', () => {
  const { calls } = countingCalls();
  const guard = (error: unknown): never => {
    throw error;
  };
  const text = newNodeData([':1.5', '/org/a11y/atspi/accessible/entry'], loadedApplication(), undefined, {
    role: ATSPI_ROLE.Entry,
    name: 'Search',
    description: '',
    accessibleId: 'search',
    states: bits(S.Enabled, S.Showing, S.Visible, S.Editable),
    interfaces: [ACC, COMPONENT, TEXT],
    childCount: 0,
  });
  const extra = [
    { namespace: 'control' as const, name: A.IsResponding, value: { type: 'Bool' as const, value: true } },
  ];
  for (const data of [button(), text]) {
    const owner = new Owner(data, calls);
    const whole = buildAttributes(owner, guard, undefined, extra);
    for (const names of [
      [A.Name, A.Id, A.IsEnabled, A.IsReadOnly, A.IsResponding],
      ['Role', A.Bounds, A.Text, 'Accessible.States'],
      ['NoSuchAttribute'],
    ]) {
      const some = buildAttributes(owner, guard, undefined, extra, new Set(names));
      const key = (attribute: NodeAttribute) => `${attribute.namespace}:${attribute.name}`;
      assert.deepEqual(
        some.map(key),
        whole.filter((attribute) => names.includes(attribute.name)).map(key),
        `${data.name}: ${names.join(' ')}`,
      );
      assert.deepEqual(
        some.map((attribute) => attribute.peek()),
        whole.filter((attribute) => names.includes(attribute.name)).map((attribute) => attribute.peek()),
      );
    }
  }
});

test('a changed, stale or invalid node serves no held value; read() refreshes and returns the current one', async () => {
  const { calls } = countingCalls();
  // Changed in place (an event updated the states and dropped the attribute list).
  const changed = new Owner(button(), calls);
  let list = changed.list();
  changed.data.states = bits(S.Showing, S.Visible);
  changed.attributeGeneration++;
  assert.equal(find(list, A.IsEnabled).peek(), undefined);
  assert.deepEqual(await find(list, A.IsEnabled).read(), { type: 'Bool', value: false });
  list = changed.list();
  assert.deepEqual(find(list, A.IsEnabled).peek(), { type: 'Bool', value: false });

  // Stale: the header must be read again before any value is trusted.
  const stale = new Owner(button(), calls, false, {
    name: 'Okay',
    states: bits(S.Enabled, S.Showing, S.Visible, S.Focused),
  });
  list = stale.list();
  assert.deepEqual(find(list, A.Name).peek(), { type: 'String', value: 'OK' });
  stale.data.stale = true;
  stale.attributeGeneration++;
  for (const attribute of list) assert.equal(attribute.peek(), undefined, attribute.name);
  assert.deepEqual(await find(list, A.Name).read(), { type: 'String', value: 'Okay' });
  assert.deepEqual(await find(list, A.IsFocused).read(), { type: 'Bool', value: true });
  assert.equal(stale.refreshes, 1);

  // Stale without a new list (the flag alone) is enough to stop peek.
  const flagged = new Owner(button(), calls);
  list = flagged.list();
  flagged.data.stale = true;
  assert.equal(find(list, A.Name).peek(), undefined);

  // Invalid, or its application gone: nothing held, and read() fails instead of serving the old value.
  const invalid = new Owner(button(), calls);
  list = invalid.list();
  invalid.data.invalid = true;
  assert.equal(find(list, A.Name).peek(), undefined);
  await assert.rejects(find(list, A.Name).read(), /stale-node/);
  const gone = new Owner(button(), calls);
  list = gone.list();
  gone.data.app.gone = true;
  assert.equal(find(list, A.IsEnabled).peek(), undefined);
});

test('a secure node: no secret attribute exists, none is held, and a held secret is never served or read', async () => {
  const { calls, count } = countingCalls();
  const data = newNodeData([':1.5', '/org/a11y/atspi/accessible/pw'], loadedApplication(), undefined, {
    role: ATSPI_ROLE.PasswordText,
    name: 'Password',
    description: '',
    accessibleId: '',
    states: bits(S.Enabled, S.Showing, S.Visible, S.Editable),
    interfaces: [ACC, COMPONENT, TEXT, VALUE, 'org.a11y.atspi.EditableText'],
    childCount: 0,
  });
  const owner = new Owner(data, calls, true);
  const list = owner.list();
  assert.ok(!list.some((attribute) => SECRET_ATTRIBUTE_NAMES.has(attribute.name)));
  assert.ok(!list.some((attribute) => attribute.name.startsWith('Text.') || attribute.name.startsWith('Value.')));
  assert.deepEqual(find(list, A.IsSecure).peek(), { type: 'Bool', value: true });
  assert.deepEqual(find(list, A.Name).peek(), { type: 'String', value: 'Password' });
  // Even an attribute named Text holding a value (no provider code makes one) is not served for a secure node.
  for (const name of SECRET_ATTRIBUTE_NAMES) {
    const secret = new HeldAttribute('control', name, owner, owner.attributeGeneration, undefined, {
      type: 'String',
      value: 'hunter2',
    });
    assert.equal(secret.peek(), undefined);
    await assert.rejects(secret.read(), (error: Error) => !error.message.includes('hunter2'));
  }
  assert.equal(count(), 0);
});
