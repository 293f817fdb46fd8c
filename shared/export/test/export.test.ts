import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DEFAULT_MOCK_TREE } from '../../../main/providers/mock/default-tree.js';
import { LocatorGenerator, locatorTreeFromSnapshot } from '../../locators/index.js';
import { readSnapshotXml } from '../../snapshot/xml-reader.js';
import { dogtailPath } from '../dogtail.js';
import {
  parseExportAction,
  renderExport,
  robotCell,
  type ExportAction,
  type ExportFormat,
  type ExportTarget,
} from '../templates.js';

function targets(keys: string[]): ExportTarget[] {
  const tree = locatorTreeFromSnapshot(readSnapshotXml(DEFAULT_MOCK_TREE));
  const generator = new LocatorGenerator(tree);
  return keys.map((key) => {
    const node = tree.nodes.find((n) => n.key === key)!;
    return {
      runtimeId: key,
      namespace: node.namespace,
      role: node.role,
      name: node.name,
      locators: generator.generate(node),
      dogtail: dogtailPath(node),
    };
  });
}

const ACTIONS: ExportAction[] = [
  { kind: 'none' },
  { kind: 'click' },
  { kind: 'focus' },
  { kind: 'type', text: `it's "typed" \\ {x} ${'$'}{y}\nnext` },
];

function pyCompile(source: string): { status: number | null; stderr: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'locators-py-'));
  try {
    const file = path.join(dir, 'generated.py');
    writeFileSync(file, source);
    const result = spawnSync('python3', ['-m', 'py_compile', file], { encoding: 'utf8' });
    return { status: result.status, stderr: result.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('every Python output (platynui_native and dogtail) compiles with python3 -m py_compile', () => {
  const nodes = targets([
    'mock:button-toolbar-ok',
    'mock:button-preferences-ok',
    'mock:edit-user',
    'mock:treeitem-main',
  ]);
  for (const format of ['python', 'dogtail'] as ExportFormat[]) {
    for (const action of ACTIONS) {
      const source = renderExport(format, nodes, action);
      const compiled = pyCompile(source);
      assert.equal(compiled.status, 0, `${format} ${action.kind}: ${compiled.stderr}\n${source}`);
    }
  }
  const python = renderExport('python', nodes, { kind: 'click' });
  assert.match(python, /from platynui_native import Runtime/);
  assert.match(python, /rt\.evaluate_single\(xpath\)/);
  assert.match(python, /rt\.pointer_click\(/);
  const dogtail = renderExport('dogtail', nodes, { kind: 'none' });
  assert.match(dogtail, /tree\.root\.application\("Studio"\)/);
  assert.match(dogtail, /GenericPredicate\(roleName="frame", name="Preferences"\)/);
  assert.match(dogtail, /GenericPredicate\(roleName="push button", name="OK"\)/);
  assert.match(dogtail, /print\(f"\{node\.roleName\}\\t\{node\.name\}"\)/);
});

test('the Robot Framework output has settings, variables and one test case per node with BareMetal keywords', () => {
  const nodes = targets(['mock:button-preferences-ok', 'mock:edit-search']);
  const robot = renderExport('robot', nodes, { kind: 'type', text: 'hello  world' });
  const lines = robot.split('\n');
  const sections = lines.filter((line) => line.startsWith('***'));
  assert.deepEqual(sections, ['*** Settings ***', '*** Variables ***', '*** Test Cases ***']);
  assert.ok(lines.includes('Library    PlatynUI.BareMetal'));
  const variables = lines.filter((line) => line.startsWith('${LOCATOR_'));
  assert.equal(variables.length, 2);
  assert.equal(variables[0], "${LOCATOR_1}    //Window[contains(@Name,'Preferences')]//Button[@Name='OK']");
  const cases = lines.filter((line) => line.startsWith('Find '));
  assert.equal(cases.length, 2);
  // Keyword lines are indented by four spaces and separate cells by four spaces; no cell contains a double space.
  const body = lines.slice(lines.indexOf('*** Test Cases ***') + 1).filter((line) => line.startsWith('    '));
  for (const line of body) {
    for (const cell of line.slice(4).split('    ')) assert.ok(!cell.includes('  ') && cell.length > 0, line);
  }
  for (const keyword of ['Query', 'Highlight', 'Get Attribute', 'Focus', 'Keyboard Type'])
    assert.ok(
      body.some((line) => line.split('    ')[1] === keyword || line.split('    ')[2] === keyword),
      keyword,
    );
  assert.ok(robot.includes('Keyboard Type    ${LOCATOR_2}    hello ${SPACE}world'));
  assert.ok(renderExport('robot', nodes, { kind: 'click' }).includes('    Pointer Click    ${LOCATOR_1}'));
  assert.equal(robotCell('${x}  # y\\'), '\\${x} ${SPACE}# y\\\\');
});

test('JSON and XPath outputs, and action parsing', () => {
  const nodes = targets(['mock:button-toolbar-ok']);
  const json = JSON.parse(renderExport('json', nodes, { kind: 'none' })) as Array<{ [key: string]: unknown }>;
  assert.equal(json[0]!.runtimeId, 'mock:button-toolbar-ok');
  assert.equal(json[0]!.role, 'Button');
  const locators = json[0]!.locators as Array<{ [key: string]: unknown }>;
  assert.deepEqual(Object.keys(locators[0]!), ['xpath', 'strategy', 'reason', 'score', 'matches']);
  assert.equal(renderExport('xpath', nodes, { kind: 'none' }), "//Button[@Id='toolbar-ok']\n");
  assert.deepEqual(parseExportAction('type:a:b'), { kind: 'type', text: 'a:b' });
  assert.throws(() => parseExportAction('drag'));
});
