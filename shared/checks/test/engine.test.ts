import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CheckConfigError, EMPTY_CHECK_CONFIG } from '../config.js';
import { parseCheckConfig } from '../config-file.js';
import { failsAt, runChecks } from '../engine.js';
import { formatCheckReport } from '../report/formats.js';
import { button, inWindow, n } from './build.js';
import { onDemandCheckAttributes, TEXT_ATTRIBUTES } from '../attributes.js';
import { isShowingByAttributes } from '../facts.js';
import { AttributeNames } from '../../model/attributes.js';
import { uiArray, uiBool, uiString } from '../../model/values.js';

const faulty = () => inWindow(button(''), n('Image', { Name: 'icon.png' }), button('OK'));
const tool = { name: 'PlatynUI Inspector', version: '0.0.0-test' };

describe('check engine, config and report formats', () => {
  test('config switches rules off, changes severity, and names what is wrong with a bad file', () => {
    const config = parseCheckConfig('{"rules":{"poor-name":"off","unnamed-control":"warning"}}', 'a11y.json');
    const report = runChecks(faulty(), { config });
    assert.deepEqual(
      report.findings.map((f) => [f.rule, f.severity]),
      [['unnamed-control', 'warning']],
    );
    assert.ok(!report.rules.some((run) => run.rule.id === 'poor-name'));
    assert.throws(
      () => parseCheckConfig('{"rules":{"no-such-rule":"off"}}', 'a11y.json'),
      (e: unknown) =>
        e instanceof CheckConfigError && /a11y\.json: rules/.test(e.message) && /unnamed-control/.test(e.message),
    );
    assert.throws(() => parseCheckConfig('{"rules":{"geometry":"loud"}}', 'c.json'), /c\.json: rules\.geometry/);
    assert.throws(() => parseCheckConfig('{"rules":', 'c.json'), /c\.json: not valid JSON/);
    assert.throws(() => parseCheckConfig('{"ignore":[{"rule":"geometry"}]}', 'c.json'), /c\.json: ignore\.0\.locator/);
  });

  test('ignored nodes and skipped subtrees give no findings; the count of ignored ones is kept', () => {
    const roots = faulty();
    const unnamed = runChecks(roots, { config: EMPTY_CHECK_CONFIG }).findings.find(
      (f) => f.rule === 'unnamed-control',
    )!;
    const ignored = runChecks(roots, {
      config: EMPTY_CHECK_CONFIG,
      ignored: new Map([['unnamed-control', new Set([unnamed.node.key])]]),
    });
    assert.ok(!ignored.findings.some((f) => f.rule === 'unnamed-control'));
    assert.equal(ignored.ignoredFindings, 1);
    const skipped = runChecks(roots, { config: EMPTY_CHECK_CONFIG, skip: (node) => node.role === 'Frame' });
    assert.equal(skipped.findings.length, 0);
    assert.equal(skipped.nodesChecked, 1);
  });

  test('--fail-on thresholds', () => {
    const report = runChecks(faulty(), { config: EMPTY_CHECK_CONFIG });
    assert.equal(failsAt(report, 'error'), true);
    assert.equal(failsAt(report, 'never'), false);
    const warningsOnly = runChecks(faulty(), { config: EMPTY_CHECK_CONFIG, only: new Set(['poor-name']) });
    assert.equal(failsAt(warningsOnly, 'error'), false);
    assert.equal(failsAt(warningsOnly, 'warning'), true);
  });

  test('JSON, SARIF 2.1.0 and JUnit carry rule, severity, node and locator', () => {
    const report = runChecks(faulty(), { config: EMPTY_CHECK_CONFIG });
    const locatorOf = (node: { name: string; role: string }) =>
      node.name ? `//${node.role}[@Name='${node.name}']` : undefined;
    const json = JSON.parse(formatCheckReport(report, 'json', locatorOf, tool)) as {
      rule: string;
      node: { role: string };
      locator: string | null;
    }[];
    assert.deepEqual(
      json.map((f) => [f.rule, f.node.role, f.locator]),
      [
        ['unnamed-control', 'Button', null],
        ['poor-name', 'Image', "//Image[@Name='icon.png']"],
      ],
    );
    const sarif = JSON.parse(formatCheckReport(report, 'sarif', locatorOf, tool)) as {
      version: string;
      runs: {
        tool: { driver: { rules: { id: string }[] } };
        results: {
          ruleId: string;
          ruleIndex: number;
          level: string;
          locations: { logicalLocations: { fullyQualifiedName: string }[] }[];
        }[];
      }[];
    };
    assert.equal(sarif.version, '2.1.0');
    const run = sarif.runs[0]!;
    const poor = run.results.find((r) => r.ruleId === 'poor-name')!;
    assert.equal(run.tool.driver.rules[poor.ruleIndex]!.id, 'poor-name');
    assert.equal(poor.level, 'warning');
    assert.equal(poor.locations[0]!.logicalLocations[0]!.fullyQualifiedName, "//Image[@Name='icon.png']");
    const junit = formatCheckReport(report, 'junit', locatorOf, tool);
    const failures = junit.match(/<failure /g)?.length ?? 0;
    const cases = junit.match(/<testcase /g)?.length ?? 0;
    assert.equal(failures, 2);
    assert.equal(cases, 2 + report.rules.filter((r) => r.findings === 0).length);
    assert.match(junit, /failure message="Image &quot;icon.png&quot; is named by a file name or path" type="warning"/);
    const text = formatCheckReport(report, 'text', locatorOf, tool);
    assert.match(text, /2 finding\(s\): 1 error\(s\), 1 warning\(s\)/);
  });
});

test('bounds and text attributes are read only of showing nodes; the rest by role as before', () => {
  assert.deepEqual(onDemandCheckAttributes('control', 'Label', 'Total', false), []);
  assert.deepEqual(onDemandCheckAttributes('control', 'Label', 'Total', true), [
    AttributeNames.Bounds,
    TEXT_ATTRIBUTES,
  ]);
  assert.deepEqual(onDemandCheckAttributes('control', 'Slider', 'Volume', false), [
    AttributeNames.MinValue,
    AttributeNames.MaxValue,
  ]);
  assert.ok(onDemandCheckAttributes('control', 'Entry', ' ', false).includes(AttributeNames.LabelledBy));
  const states = (names: string[]) => new Map([['native:Accessible.States', uiArray(names.map(uiString))]]);
  assert.equal(isShowingByAttributes(states(['showing', 'visible'])), true);
  assert.equal(isShowingByAttributes(states(['visible'])), false);
  assert.equal(isShowingByAttributes(new Map([[AttributeNames.IsVisible, uiBool(true)]])), true);
  assert.equal(
    isShowingByAttributes(
      new Map([
        [AttributeNames.IsVisible, uiBool(true)],
        [AttributeNames.IsOffscreen, uiBool(true)],
      ]),
    ),
    false,
  );
});
