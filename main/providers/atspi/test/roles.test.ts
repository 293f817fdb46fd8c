import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ATSPI_ROLE_NAMES, atspiRoleName, mapRole, mapRoleName, pascalCase } from '../roles.js';

test('AT-SPI role names map to PlatynUI roles', () => {
  const cases: Array<[string, string, string]> = [
    ['push button', 'control', 'Button'],
    ['page tab list', 'control', 'Tab'],
    ['page tab', 'item', 'TabItem'],
    ['check menu item', 'item', 'MenuItem'],
    ['radio menu item', 'item', 'MenuItem'],
    ['menu item', 'item', 'MenuItem'],
    ['application', 'app', 'Application'],
    ['label', 'control', 'Label'],
    ['check box', 'control', 'CheckBox'],
    ['entry', 'control', 'Entry'],
    ['password text', 'control', 'PasswordText'],
    ['list item', 'item', 'ListItem'],
    ['table row', 'item', 'TableRow'],
    ['table cell', 'item', 'TableCell'],
    ['tree item', 'item', 'TreeItem'],
    ['column header', 'item', 'ColumnHeader'],
    ['row header', 'item', 'RowHeader'],
    ['table column header', 'item', 'TableColumnHeader'],
    ['table row header', 'item', 'TableRowHeader'],
    ['description term', 'item', 'DescriptionTerm'],
    ['description value', 'item', 'DescriptionValue'],
    ['document web', 'control', 'DocumentWeb'],
    ['frame', 'control', 'Frame'],
    ['tree table', 'control', 'TreeTable'],
  ];
  for (const [nativeRole, namespace, role] of cases) {
    assert.deepEqual(mapRoleName(nativeRole), { namespace, role, nativeRole }, nativeRole);
  }
});

test('numeric roles follow the AtspiRole enumeration', () => {
  assert.equal(atspiRoleName(43), 'push button');
  assert.equal(atspiRoleName(75), 'application');
  assert.equal(atspiRoleName(40), 'password text');
  assert.equal(atspiRoleName(95), 'document web');
  assert.equal(atspiRoleName(129), 'push button menu');
  assert.equal(atspiRoleName(9999), 'unknown');
  assert.equal(mapRole(43).role, 'Button');
  assert.equal(mapRole(37).namespace, 'item');
  assert.equal(ATSPI_ROLE_NAMES.length, 130);
});

test('every role maps to a PascalCase name without spaces', () => {
  for (let role = 0; role < ATSPI_ROLE_NAMES.length; role++) {
    const mapped = mapRole(role);
    assert.match(mapped.role, /^[A-Z][A-Za-z]*$/, `${role} ${mapped.nativeRole}`);
  }
  assert.equal(pascalCase('tree-table'), 'TreeTable');
});
