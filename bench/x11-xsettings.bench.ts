// What reading the double-click settings costs on each use (the X11 pointer re-reads them instead of listening for
// PropertyNotify): the XSETTINGS owner lookup plus the property, with a manager and without, against one XSync
// round trip as the same-run baseline. Prints `name value unit`.
//
//   node dist/bench/x11-xsettings.bench.js        (starts its own desktop session unless DISPLAY is set)
import { X11Connection } from '../main/platform/x11/connection.js';
import { readDoubleClickSettings } from '../main/platform/x11/pointer.js';
import { useDesktop } from '../main/platform/x11/test/support/desktop.js';
import { TestXSettingsManager, doubleClickSettings } from '../main/platform/x11/test/support/xsettings-manager.js';
import { percentile, print } from './_stats.js';

const ROUNDS = 2000;

function measure(body: () => void): number[] {
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    body();
    samples.push(performance.now() - t);
  }
  return samples;
}

async function main(): Promise<void> {
  const desktop = await useDesktop();
  const connection = X11Connection.open(desktop.display);
  let manager: TestXSettingsManager | undefined;
  try {
    const roundTrip = measure(() => connection.sync());
    const none = measure(() => readDoubleClickSettings(connection));
    manager = TestXSettingsManager.start(desktop.display, doubleClickSettings(450, 6));
    const read = measure(() => readDoubleClickSettings(connection));
    if (readDoubleClickSettings(connection).timeMs !== 450) throw new Error('the manager was not read');
    print('x11.roundTrip.p50', percentile(roundTrip, 50), 'ms');
    print('x11.xsettings.noManager.p50', percentile(none, 50), 'ms');
    print('x11.xsettings.read.p50', percentile(read, 50), 'ms');
    print('x11.xsettings.read.p95', percentile(read, 95), 'ms');
    print('x11.xsettings.read/roundTrip.p50', percentile(read, 50) / percentile(roundTrip, 50), 'ratio');
  } finally {
    manager?.stop();
    connection.close();
    await desktop.stop();
  }
}

await main();
