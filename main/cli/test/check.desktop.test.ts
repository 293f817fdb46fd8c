import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LaunchedApp } from '../../../e2e/support/apps.js';
import { fixtureUrl, launchChromium, launchPythonGtkApp, sessionEnv } from '../../../e2e/support/apps.js';
import { projectRoot } from '../../../e2e/support/paths.js';

// `check` as a user runs it: the CLI as a child process against a real Chromium page with a faulty part and its
// clean twin (e2e/fixtures/a11y-checks.html), and a GTK 3 application built the same way
// (e2e/fixtures/gtk3-a11y-checks.py): label relations, table headers, states and geometry as AT-SPI reports them.

let page: LaunchedApp;
let gtk: LaunchedApp;
let tabApp: LaunchedApp;

interface FindingLine {
  rule: string;
  severity: string;
  message: string;
  node: { runtimeId: string; role: string; name: string };
  locator: string | null;
}

function spawnCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [path.join(projectRoot(), 'bin', 'platynui-inspector'), ...args], {
    env: sessionEnv(),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function check(args: string[]): { status: number | null; findings: FindingLine[]; stderr: string } {
  const run = spawnCli(['check', ...args]);
  const json = args.includes('json');
  return {
    status: run.status,
    findings: json && run.stdout ? (JSON.parse(run.stdout) as FindingLine[]) : [],
    stderr: run.stderr,
  };
}

const part = (name: string) => `app:Application[@Name='Chromium']//*[@Name='${name}'][1]`;

before(async () => {
  [page, gtk, tabApp] = await Promise.all([
    launchChromium(sessionEnv(), fixtureUrl('a11y-checks.html'), { title: 'PlatynUI Checks Fixture' }),
    launchPythonGtkApp('gtk3-a11y-checks.py', sessionEnv()),
    launchPythonGtkApp('gtk3-tab-order.py', sessionEnv()),
  ]);
});

after(async () => {
  await Promise.all([page?.stop(), gtk?.stop(), tabApp?.stop()]);
});

/** Contrast is measured on the screen as it is: the window under test goes on top of the other first. */
function raise(window: string): void {
  const run = spawnCli(['window', window, '--activate']);
  assert.equal(run.status, 0, run.stderr);
}

describe('check on a real Chromium page', () => {
  before(() => raise("app:Application[@Name='Chromium']/*[contains(@Name, 'PlatynUI Checks Fixture')]"));

  test('every seeded fault is found in the faulty part, each with a locator where the node has a name', () => {
    const faulty = check([part('Faulty part'), '--format', 'json']);
    assert.equal(faulty.status, 1, `findings at error level exit 1: ${faulty.stderr}`);
    const found = faulty.findings.map((f) => `${f.rule} ${f.node.role} ${JSON.stringify(f.node.name)}`).sort();
    assert.deepEqual(found, [
      'dialog-without-focus Dialog "Notice"',
      'duplicate-sibling-name Button "Delete"',
      'poor-name Button "button"',
      'poor-name Image "banner-final.png"',
      'role-requirements Table "Prices"',
      'text-contrast Static "Faint note"',
      'unlabelled-field Entry ""',
      'unnamed-control Button ""',
      'unnamed-image Image "To get missing image descriptions, open the context menu."',
    ]);
    for (const finding of faulty.findings) assert.ok(finding.locator, `a verified locator for ${finding.message}`);
  });

  test('the clean twin gives no findings and exits 0', () => {
    const clean = check([part('Clean part'), '--format', 'json', '--fail-on', 'info']);
    assert.deepEqual(clean.findings, []);
    assert.equal(clean.status, 0, clean.stderr);
  });

  test('--fail-on, --rules, --config and the SARIF and JUnit formats', () => {
    assert.equal(check([part('Faulty part'), '--format', 'json', '--fail-on', 'never']).status, 0);
    const warnings = check([part('Faulty part'), '--format', 'json', '--rules', 'poor-name,duplicate-sibling-name']);
    assert.equal(warnings.status, 0, 'warnings alone do not fail at the default --fail-on error');
    assert.equal(warnings.findings.length, 3);
    const dir = mkdtempSync(path.join(tmpdir(), 'check-config-'));
    try {
      const config = path.join(dir, 'a11y.json');
      writeFileSync(
        config,
        JSON.stringify({ rules: { 'poor-name': 'off' }, ignore: [{ locator: "//Table[@Name='Prices']" }] }),
      );
      const configured = check([part('Faulty part'), '--format', 'json', '--config', config]);
      assert.ok(!configured.findings.some((f) => f.rule === 'poor-name' || f.node.name === 'Prices'));
      assert.equal(configured.findings.length, 6);
      writeFileSync(config, '{"rules": {"poor-name": "loud"}}');
      const bad = check([part('Faulty part'), '--config', config]);
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /a11y\.json: rules\.poor-name/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const sarif = spawnCli(['check', part('Faulty part'), '--format', 'sarif']);
    const log = JSON.parse(sarif.stdout) as { version: string; runs: { results: { ruleId: string }[] }[] };
    assert.equal(log.version, '2.1.0');
    assert.equal(log.runs[0]!.results.length, 9);
    const junit = spawnCli(['check', part('Faulty part'), '--format', 'junit']);
    assert.equal(junit.stdout.match(/<failure /g)?.length, 9);
  });
});

const gtkPart = (name: string) => `app:Application[@Name='gtk3-a11y-checks']//Filler[@Name='${name}']`;

describe('check on a real GTK 3 application', () => {
  before(() => raise("app:Application[@Name='gtk3-a11y-checks']/Frame"));

  test('every seeded fault is found in the faulty part', () => {
    const faulty = check([gtkPart('Faulty part'), '--format', 'json']);
    assert.equal(faulty.status, 1, faulty.stderr);
    const found = faulty.findings.map((f) => `${f.rule} ${f.node.role} ${JSON.stringify(f.node.name)}`).sort();
    assert.deepEqual(found, [
      'contradictory-states Button "Send"',
      'duplicate-sibling-name Button "Delete"',
      'geometry Button "Help"',
      'poor-name Icon "logo-final.png"',
      'role-requirements ProgressBar "Upload"',
      'role-requirements Table ""',
      'text-contrast Label "Faint note"',
      'unlabelled-field Text ""',
      'unnamed-control Button ""',
      'unnamed-image Icon ""',
    ]);
    const faint = faulty.findings.find((f) => f.rule === 'text-contrast');
    assert.match(faint!.message, /contrast of 1\.[6-9]\d:1 \(#b[0-9a-f]{5} on #f[0-9a-f]{5}\), below 4\.5:1/);
    const outside = faulty.findings.find((f) => f.rule === 'geometry');
    assert.match(outside!.message, /lies outside its window Frame "GTK checks fixture"/);
  });

  test('the clean twin gives no findings: its field is labelled through the relation AT-SPI reports', () => {
    const clean = check([gtkPart('Clean part'), '--format', 'json', '--fail-on', 'info']);
    assert.deepEqual(clean.findings, []);
    assert.equal(clean.status, 0, clean.stderr);
    const query = (xpath: string) => {
      const run = spawnCli(['query', xpath, '--format', 'json', '--attrs', 'all']);
      const [node] = JSON.parse(run.stdout) as { runtimeId: string; attributes: { [name: string]: unknown } }[];
      assert.ok(node, `${xpath}: ${run.stderr}`);
      return node;
    };
    const label = query(`${gtkPart('Clean part')}//Label[@Name='Search']`);
    const field = query(`${gtkPart('Clean part')}//Text`);
    assert.deepEqual(field.attributes['LabelledBy'], [label.runtimeId]);
    assert.deepEqual(label.attributes['LabelFor'], [field.runtimeId]);
    assert.deepEqual(field.attributes['native:Accessible.Relations'], { 'labelled-by': [label.runtimeId] });
    const table = query(`${gtkPart('Clean part')}//Table`);
    const headers = JSON.parse(
      spawnCli(['query', `${gtkPart('Clean part')}//Table/item:TableColumnHeader`, '--format', 'json']).stdout,
    ) as { runtimeId: string; name: string }[];
    assert.deepEqual(
      headers.map((header) => header.name),
      ['Fruit', 'Count'],
    );
    assert.deepEqual(
      table.attributes['native:Table.ColumnHeaders'],
      headers.map((header) => header.runtimeId),
    );
  });
});

const tabWindow = (title: string) => `app:Application[@Name='gtk3-tab-order']/Frame[@Name='${title}']`;

describe('check --tab-order on a real GTK 3 application', () => {
  test('the faulty window: a stop Tab never reaches and a field that swallows Tab, with their WCAG criteria', () => {
    const run = spawnCli(['check', tabWindow('Tab order faulty'), '--tab-order', '--format', 'sarif']);
    assert.equal(run.status, 1, run.stderr);
    const log = JSON.parse(run.stdout) as {
      runs: {
        tool: { driver: { rules: { id: string; properties: { tags: string[] } }[] } };
        results: {
          ruleId: string;
          properties: { role: string };
          locations: { logicalLocations: { name: string }[] }[];
        }[];
      }[];
    };
    const found = log.runs[0]!.results.map(
      (result) => `${result.ruleId} ${result.properties.role} ${result.locations[0]!.logicalLocations[0]!.name}`,
    );
    assert.deepEqual(found.sort(), ['tab-trap Text Trap', 'tab-unreachable Button Skipped']);
    const tags = (id: string) => log.runs[0]!.tool.driver.rules.find((rule) => rule.id === id)?.properties.tags;
    assert.ok(tags('tab-trap')?.includes('WCAG 2.1.2 No Keyboard Trap'));
    assert.ok(tags('tab-unreachable')?.includes('WCAG 2.1.1 Keyboard'));
    // The order goes to stderr beside a machine-read format: numbered, from the first stop to the trap.
    assert.match(
      run.stderr,
      /tab order of Frame "Tab order faulty": 3 stop\(s\), 4 press\(es\) of Tab; the focus was trapped/,
    );
    assert.match(run.stderr, /1\. Text "First"\n +2\. Button "Second"\n +3\. Text "Trap"/);
  });

  test('the clean twin: Tab visits every stop and comes back to the first, with numbered markers drawn', () => {
    const run = spawnCli(['check', tabWindow('Tab order clean'), '--tab-order', '--tab-markers', '--fail-on', 'info']);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /4 stop\(s\), 4 press\(es\) of Tab; the focus came back to the first stop/);
    assert.match(
      run.stdout,
      /1\. Text "Name"\n +2\. CheckBox "Remember me"\n +3\. Button "Save"\n +4\. Button "Cancel"/,
    );
    assert.match(run.stdout, /^0 finding\(s\)/m);
  });

  test('without --tab-order the tab rules do not run; its options alone are a usage error', () => {
    const run = spawnCli(['check', tabWindow('Tab order faulty'), '--format', 'json', '--fail-on', 'never']);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(!(JSON.parse(run.stdout) as FindingLine[]).some((f) => f.rule.startsWith('tab-')));
    const usage = spawnCli(['check', '--tab-markers']);
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--tab-markers and --tab-time-limit go with --tab-order/);
  });
});
