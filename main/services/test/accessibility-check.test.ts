import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EMPTY_CHECK_CONFIG } from '../../../shared/checks/config.js';
import { RuntimeNode } from '../../runtime/node.js';
import { Runtime } from '../../runtime/runtime.js';
import { XPathService } from '../../xpath/xpath-service.js';
import { checkAccessibility } from '../accessibility-check.js';

// Tables without header cells among their children are judged by the header lists their provider reports; those
// lists are read only for such tables, after the tree is known.
const TABLES = `<?xml version="1.0" encoding="UTF-8"?>
<snapshot xmlns="urn:platynui:control" xmlns:item="urn:platynui:item" xmlns:app="urn:platynui:app" xmlns:native="urn:platynui:native">
  <app:Application Name="Ledger" RuntimeId="mock:app-ledger" ProcessId="4242" SupportedPatterns='["Application"]'>
    <Window Name="Ledger" RuntimeId="mock:window-ledger" Bounds='{"x":0,"y":0,"width":800,"height":600}' IsVisible="true" IsEnabled="true" SupportedPatterns='["Element"]'>
      <Table Name="Files" RuntimeId="mock:table-files" native:Table.ColumnHeaders='["Name"]' SupportedPatterns='["Element"]'>
        <item:TableRow RuntimeId="mock:files-row" SupportedPatterns='["Element"]'/>
      </Table>
      <Table Name="Sizes" RuntimeId="mock:table-sizes" native:Table.ColumnHeaders='[]' SupportedPatterns='["Element"]'>
        <item:TableRow RuntimeId="mock:sizes-row" SupportedPatterns='["Element"]'/>
      </Table>
      <Table Name="Dates" RuntimeId="mock:table-dates" SupportedPatterns='["Element"]'>
        <ColumnHeader Name="Date" RuntimeId="mock:dates-header" SupportedPatterns='["Element"]'/>
        <item:TableRow RuntimeId="mock:dates-row" SupportedPatterns='["Element"]'/>
      </Table>
    </Window>
  </app:Application>
</snapshot>`;

describe('checkAccessibility (mock desktop)', () => {
  let runtime: Runtime;
  let xpath: XPathService;

  before(async () => {
    runtime = await Runtime.create({
      providers: ['mock'],
      platform: 'none',
      backendOptions: { mock: { text: TABLES, source: 'tables' } },
    });
    xpath = new XPathService(runtime);
  });

  after(async () => {
    await xpath.close();
    await runtime.shutdown();
  });

  it('judges a table without header cells by the header lists its provider reports', async () => {
    const { report } = await checkAccessibility(runtime, xpath, {
      xpath: "app:Application[@Name='Ledger']",
      config: EMPTY_CHECK_CONFIG,
      only: new Set(['role-requirements']),
      contrast: false,
    });
    assert.deepEqual(
      report.findings.map((finding) => finding.message),
      ['Table "Sizes" has no row or column headers'],
    );
  });

  it("reads the locators' priority attributes with the rules' own only when the findings get locators", async () => {
    const asked = new Set<string>();
    const peek = RuntimeNode.prototype.peekAttributesNamed;
    RuntimeNode.prototype.peekAttributesNamed = function (this: RuntimeNode, names) {
      for (const name of names) asked.add(name);
      return peek.call(this, names);
    };
    try {
      const check = (locate?: () => Promise<ReadonlyMap<string, string>>) =>
        checkAccessibility(runtime, xpath, {
          xpath: "app:Application[@Name='Ledger']",
          config: EMPTY_CHECK_CONFIG,
          contrast: false,
          ...(locate ? { locate } : {}),
        });
      await check();
      assert.ok(asked.has('Name') && !asked.has('ExecutablePath'), [...asked].join(', '));
      asked.clear();
      await check(async () => new Map());
      assert.ok(asked.has('ExecutablePath'), [...asked].join(', '));
    } finally {
      RuntimeNode.prototype.peekAttributesNamed = peek;
    }
  });
});
