import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMPTY_CHECK_CONFIG } from '../config.js';
import { runChecks } from '../engine.js';
import { walkCheckTree, type CheckNode } from '../model.js';
import { RULES } from '../rules/index.js';
import { isTabStop } from '../rules/tab-order.js';
import { button, inWindow, n } from './build.js';
import { uiBool, uiNumber, uiString, type UiValue } from '../../model/values.js';

/** The messages one rule gives over a tree, everything else switched off. */
function findings(rule: string, roots: CheckNode[]): string[] {
  return runChecks(roots, { config: EMPTY_CHECK_CONFIG, only: new Set([rule]) }).findings.map((f) => f.message);
}

const focusable = ['Element', 'Focusable'];

describe('accessibility rules: each finds its fault and is quiet on the clean twin', () => {
  test('every rule has an id, a severity, help and the WCAG criteria it serves', () => {
    const ids = new Set<string>();
    for (const rule of RULES) {
      assert.match(rule.id, /^[a-z]+(-[a-z]+)*$/);
      assert.ok(!ids.has(rule.id), `duplicate rule id ${rule.id}`);
      ids.add(rule.id);
      assert.ok(rule.help.length > 40, `${rule.id} has help text`);
      assert.ok(rule.wcag.length > 0 && rule.wcag.every((c) => /^\d\.\d\.\d+ \S/.test(c)), `${rule.id} names WCAG`);
    }
  });

  test('unnamed-control: a focusable or actionable element without a name', () => {
    assert.deepEqual(findings('unnamed-control', inWindow(button(''))), [
      'Button can be focused or acted on but has no accessible name',
    ]);
    assert.deepEqual(findings('unnamed-control', inWindow(button('Save'))), []);
    // A name from content: a link whose text child carries the name.
    assert.deepEqual(
      findings(
        'unnamed-control',
        inWindow(n('Link', { SupportedPatterns: ['Activatable'] }, [n('Text', { Name: 'Home' })])),
      ),
      [],
    );
    // Native states are enough to know it takes focus.
    assert.equal(
      findings('unnamed-control', inWindow(n('Panel', { 'native:Accessible.States': ['focusable', 'showing'] })))
        .length,
      1,
    );
    assert.deepEqual(
      findings('unnamed-control', inWindow(n('Panel', { 'native:Accessible.States': ['showing'] }))),
      [],
    );
    // Text content that reacts to clicks (a label's text) is content, not an unnamed control.
    assert.deepEqual(
      findings('unnamed-control', inWindow(n('Static', { Name: ' ', SupportedPatterns: ['Activatable'] }))),
      [],
    );
  });

  test('unlabelled-field: a field without a name or a label relation', () => {
    const edit = (extra = {}) => n('Edit', { SupportedPatterns: ['TextEditable', ...focusable], ...extra });
    assert.deepEqual(findings('unlabelled-field', inWindow(edit())), ['Edit has no name and no label relation']);
    assert.deepEqual(findings('unlabelled-field', inWindow(edit({ Name: 'Search' }))), []);
    assert.deepEqual(findings('unlabelled-field', inWindow(edit({ LabelledBy: ['atspi:label-1'] }))), []);
    // A read-only text is not a field; the unnamed-control rule does not count fields twice.
    assert.deepEqual(findings('unlabelled-field', inWindow(n('Text', { Name: '' }))), []);
    assert.deepEqual(findings('unnamed-control', inWindow(edit())), []);
  });

  test('unnamed-image: an image or graphic without a text alternative', () => {
    assert.deepEqual(findings('unnamed-image', inWindow(n('Image'))), ['Image has no text alternative']);
    assert.deepEqual(findings('unnamed-image', inWindow(n('Image', { Name: 'Company logo' }))), []);
    const chromium = 'To get missing image descriptions, open the context menu.';
    assert.deepEqual(findings('unnamed-image', inWindow(n('Image', { Name: chromium }))), [
      `Image has no text alternative (the toolkit shows "${chromium}" instead)`,
    ]);
    assert.deepEqual(findings('poor-name', inWindow(n('Image', { Name: chromium }))), []);
  });

  test('duplicate-sibling-name: actionable siblings with the same role and name', () => {
    assert.deepEqual(
      findings('duplicate-sibling-name', inWindow(button('Delete'), button('Delete'), button('Delete'))),
      [
        'Button "Delete" has 2 sibling(s) with the same role and name',
        'Button "Delete" has 2 sibling(s) with the same role and name',
      ],
    );
    assert.deepEqual(findings('duplicate-sibling-name', inWindow(button('Delete row 1'), button('Delete row 2'))), []);
    // Same name in different containers is fine.
    assert.deepEqual(
      findings('duplicate-sibling-name', inWindow(n('Panel', {}, [button('OK')]), n('Panel', {}, [button('OK')]))),
      [],
    );
  });

  test('contradictory-states: focused but not focusable, checked without checkable, selected alone, disabled focusable', () => {
    assert.deepEqual(
      findings(
        'contradictory-states',
        inWindow(n('Label', { Name: 'x', IsFocused: true, SupportedPatterns: ['Element'] })),
      ),
      ['Label "x" reports focus but is not focusable'],
    );
    assert.deepEqual(findings('contradictory-states', inWindow(button('x', { IsFocused: true }))), []);
    assert.deepEqual(
      findings('contradictory-states', inWindow(n('Label', { Name: 'x', 'native:Accessible.States': ['checked'] }))),
      ['Label "x" is checked but cannot be checked'],
    );
    assert.deepEqual(
      findings(
        'contradictory-states',
        inWindow(n('CheckBox', { Name: 'x', 'native:Accessible.States': ['checked', 'checkable'] })),
      ),
      [],
    );
    assert.deepEqual(
      findings('contradictory-states', inWindow(n('Panel', {}, [n('item:ListItem', { Name: 'a', IsSelected: true })]))),
      ['item:ListItem "a" is selected but no container around it offers selection'],
    );
    assert.deepEqual(
      findings('contradictory-states', inWindow(n('List', {}, [n('item:ListItem', { Name: 'a', IsSelected: true })]))),
      [],
    );
    assert.deepEqual(
      findings(
        'contradictory-states',
        inWindow(n('Button', { Name: 'Go', IsEnabled: false, 'native:Accessible.States': ['focusable', 'showing'] })),
      ),
      ['Button "Go" is disabled yet focusable'],
    );
    assert.deepEqual(
      findings(
        'contradictory-states',
        inWindow(n('Button', { Name: 'Go', IsEnabled: false, 'native:Accessible.States': ['showing'] })),
      ),
      [],
    );
  });

  test('role-requirements: toggle state, value range, table headers', () => {
    assert.deepEqual(findings('role-requirements', inWindow(n('CheckBox', { Name: 'Wrap' }))), [
      'CheckBox "Wrap" does not report whether it is checked',
    ]);
    assert.deepEqual(findings('role-requirements', inWindow(n('CheckBox', { Name: 'Wrap', ToggleState: 'Off' }))), []);
    assert.deepEqual(findings('role-requirements', inWindow(n('Slider', { Name: 'Volume', Value: 3 }))), [
      'Slider "Volume" has no value range (minimum and maximum)',
    ]);
    assert.deepEqual(
      findings('role-requirements', inWindow(n('Slider', { Name: 'Volume', MinValue: 5, MaxValue: 5 }))),
      ['Slider "Volume" has an empty value range (5 to 5)'],
    );
    assert.deepEqual(
      findings('role-requirements', inWindow(n('Slider', { Name: 'Volume', MinValue: 0, MaxValue: 10 }))),
      [],
    );
    assert.deepEqual(
      findings(
        'role-requirements',
        inWindow(n('ProgressBar', { Name: 'Copying', 'native:Accessible.States': ['indeterminate'] })),
      ),
      [],
    );
    const row = n('TableRow', {}, [n('TableCell', { Name: '1' })]);
    assert.deepEqual(findings('role-requirements', inWindow(n('Table', { Name: 'Files' }, [row]))), [
      'Table "Files" has no row or column headers',
    ]);
    const headerRow = n('TableRow', {}, [n('ColumnHeader', { Name: 'Size' })]);
    assert.deepEqual(findings('role-requirements', inWindow(n('Table', { Name: 'Files' }, [headerRow, row]))), []);
    const declared = { 'native:Table.ColumnHeaders': ['atspi://:1.2/h1'] };
    assert.deepEqual(findings('role-requirements', inWindow(n('Table', { Name: 'Files', ...declared }, [row]))), []);
    const hidden = n('item:TableColumnHeader', { Name: 'Size', 'native:Accessible.States': ['enabled'] });
    const shownHeader = n('item:TableColumnHeader', {
      Name: 'Size',
      'native:Accessible.States': ['showing', 'visible'],
    });
    const unnamed = n('ColumnHeader', { Name: '' });
    for (const headers of [[hidden], [unnamed]]) {
      assert.deepEqual(
        findings('role-requirements', inWindow(n('Table', { Name: 'Files', ...declared }, [...headers, row]))),
        ['Table "Files" has no row or column headers'],
        'hidden or unnamed headers are no headers, whatever the table declares',
      );
    }
    assert.deepEqual(findings('role-requirements', inWindow(n('Table', { Name: 'Files' }, [shownHeader, row]))), []);
  });

  test('geometry: showing with no size, or outside its window', () => {
    const shown = { IsVisible: true };
    assert.deepEqual(
      findings('geometry', inWindow(button('A', { ...shown, Bounds: { x: 10, y: 10, width: 0, height: 20 } }))),
      ['Button "A" is showing but has no size (0×20)'],
    );
    assert.deepEqual(
      findings('geometry', inWindow(button('A', { ...shown, Bounds: { x: 900, y: 10, width: 50, height: 20 } }))),
      ['Button "A" at 900, 10 lies outside its window Frame "Main" (0, 0 · 800×600)'],
    );
    assert.deepEqual(
      findings('geometry', inWindow(button('A', { ...shown, Bounds: { x: 790, y: 10, width: 50, height: 20 } }))),
      [],
    );
    // Not showing: nothing to say.
    assert.deepEqual(
      findings('geometry', inWindow(button('A', { IsVisible: false, Bounds: { x: 900, y: 10, width: 0, height: 0 } }))),
      [],
    );
  });

  test('dialog-without-focus: a dialog with nothing focusable', () => {
    assert.deepEqual(
      findings('dialog-without-focus', inWindow(n('Dialog', { Name: 'Error' }, [n('Label', { Name: 'Failed' })]))),
      ['Dialog "Error" contains nothing focusable'],
    );
    assert.deepEqual(
      findings('dialog-without-focus', inWindow(n('Dialog', { Name: 'Error' }, [n('Panel', {}, [button('OK')])]))),
      [],
    );
  });

  test('poor-name: the role, a file name, a path or a placeholder', () => {
    assert.deepEqual(findings('poor-name', inWindow(n('CheckBox', { Name: 'check box' }))), [
      'CheckBox "check box" is named after its role',
    ]);
    assert.deepEqual(findings('poor-name', inWindow(n('Image', { Name: 'logo-final.png' }))), [
      'Image "logo-final.png" is named by a file name or path',
    ]);
    assert.deepEqual(findings('poor-name', inWindow(n('Image', { Name: '/usr/share/icons/hicolor/x' }))), [
      'Image "/usr/share/icons/hicolor/x" is named by a file name or path',
    ]);
    assert.deepEqual(findings('poor-name', inWindow(n('Image', { Name: 'Untitled' }))), [
      'Image "Untitled" has a placeholder for a name',
    ]);
    assert.deepEqual(
      findings('poor-name', inWindow(button('Save as PDF'), n('Image', { Name: 'Version 2.0 release notes' }))),
      [],
    );
  });

  test('tab-unreachable and tab-trap: what the keyboard walk attached, quiet where it reached the stop', () => {
    const walked = (fact: { [key: string]: UiValue }) =>
      inWindow(button('Skipped', { TabOrder: { type: 'Object', value: fact } }));
    assert.deepEqual(findings('tab-unreachable', walked({ unreached: uiBool(true), steps: uiNumber(4) })), [
      'Button "Skipped" takes focus, but 4 press(es) of Tab never reached it',
    ]);
    assert.deepEqual(findings('tab-unreachable', walked({ position: uiNumber(2) })), []);
    assert.deepEqual(findings('tab-trap', walked({ trap: uiString('Tab leaves the focus on it') })), [
      'Button "Skipped": Tab leaves the focus on it',
    ]);
    assert.deepEqual(findings('tab-trap', walked({ position: uiNumber(1) })), []);
  });

  test('a tab stop takes focus, shows and is enabled; windows are none', () => {
    const states = (list: string[]) => ({ 'native:Accessible.States': list });
    const stops = [
      ...walkCheckTree(
        inWindow(
          n('Button', { Name: 'a', ...states(['focusable', 'showing', 'visible', 'enabled']) }),
          n('Button', { Name: 'b', ...states(['focusable', 'showing', 'visible']) }),
          n('Button', { Name: 'c', ...states(['focusable', 'visible', 'enabled']) }),
          n('Label', { Name: 'd', ...states(['showing', 'visible', 'enabled']) }),
        ),
      ),
    ].filter(isTabStop);
    assert.deepEqual(
      stops.map((node) => node.name),
      ['a'],
    );
  });
});
