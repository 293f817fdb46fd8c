import '../../backends/linux.js';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { LaunchedApp } from '../../../e2e/support/apps.js';
import { CONTROLS_READY_TITLE, fixtureUrl, launchChromium, launchGtk3Demo } from '../../../e2e/support/apps.js';
import { Runtime } from '../../runtime/runtime.js';
import { XPathService } from '../../xpath/xpath-service.js';
import { selectRoots } from '../select-nodes.js';
import { assertSelectedAsEngineSelects } from './select-roots-support.js';

// The root query of check and snapshot without the XPath engine, against real applications (gtk3-demo and Chromium):
// the same nodes in the same order as the engine selects.

let gtk: LaunchedApp;
let chromium: LaunchedApp;

before(async () => {
  [gtk, chromium] = await Promise.all([
    launchGtk3Demo(process.env),
    launchChromium(process.env, fixtureUrl('controls.html'), { title: CONTROLS_READY_TITLE }),
  ]);
});

after(async () => {
  await Promise.all([gtk?.stop(), chromium?.stop()]);
});

test('applications by name and the desktop are selected without the engine, as the engine selects them', async () => {
  const runtime = await Runtime.create({ providers: ['atspi'] });
  const xpath = new XPathService(runtime);
  try {
    await assertSelectedAsEngineSelects(runtime, xpath, [
      '/',
      "app:Application[@Name='gtk3-demo']",
      "//app:Application[@Name='Chromium']",
      "/app:Application[@Name='No such application']",
    ]);
    const [demo] = await selectRoots(runtime, () => xpath, "app:Application[@Name='gtk3-demo']", undefined);
    assert.equal(demo?.runtimeId, `atspi://${gtk.busName}/org/a11y/atspi/accessible/root`);
  } finally {
    await xpath.close();
    await runtime.shutdown();
  }
});
