import assert from 'node:assert/strict';
import { test } from 'node:test';
import { translateSignal } from '../events.js';

const signal = (
  member: string,
  body: unknown[],
  iface = 'org.a11y.atspi.Event.Object',
  sender = ':1.7',
  path = '/o/1',
) => ({
  sender,
  path,
  interface: iface,
  member,
  signature: 'siiva{sv}',
  body,
});

test('children-changed becomes an add or remove with the child runtime id', () => {
  const add = translateSignal(signal('ChildrenChanged', ['add', 2, 0, { value: [':1.7', '/o/9'] }, {}]), ':1.1');
  assert.deepEqual(add, {
    kind: 'children-added',
    parent: 'atspi://:1.7/o/1',
    child: 'atspi://:1.7/o/9',
    index: 2,
    fromRegistry: false,
  });
  const remove = translateSignal(
    signal('ChildrenChanged', ['remove/system', 0, 0, { value: [':1.7', '/o/9'] }, {}]),
    ':1.1',
  );
  assert.equal(remove?.kind, 'children-removed');
  const app = translateSignal(
    signal(
      'ChildrenChanged',
      ['add', 3, 0, { value: [':1.9', '/org/a11y/atspi/accessible/root'] }, {}],
      undefined,
      ':1.1',
      '/org/a11y/atspi/accessible/root',
    ),
    ':1.1',
  );
  assert.equal(app?.kind === 'children-added' && app.fromRegistry, true);
});

test('property and state changes name the attributes they touch', () => {
  const name = translateSignal(
    signal('PropertyChange', ['accessible-name', 0, 0, { value: 'Clicked' }, {}]),
    undefined,
  );
  assert.deepEqual(name, {
    kind: 'property',
    target: 'atspi://:1.7/o/1',
    property: 'accessible-name',
    attributes: ['Name'],
    name: 'Clicked',
  });
  const state = translateSignal(signal('StateChanged', ['checked', 1, 0, { value: 0 }, {}]), undefined);
  assert.deepEqual(state, {
    kind: 'state',
    target: 'atspi://:1.7/o/1',
    state: 'checked',
    on: true,
    attributes: ['ToggleState'],
  });
});

test('a vanished unique name is an application leaving', () => {
  const gone = translateSignal(
    signal(
      'NameOwnerChanged',
      [':1.7', ':1.7', ''],
      'org.freedesktop.DBus',
      'org.freedesktop.DBus',
      '/org/freedesktop/DBus',
    ),
    undefined,
  );
  assert.deepEqual(gone, { kind: 'application-gone', busName: ':1.7' });
  assert.equal(translateSignal(signal('TextChanged', ['insert', 0, 1, { value: 'x' }, {}]), undefined), undefined);
});
