// Robustness of generated locators on a real application: gtk3-demo is started in the desktop session, its tree is
// captured through AT-SPI exactly as `locate` captures it, and the mutation families of bench/_robustness.ts are
// applied to that tree. Needs the desktop session (bench/run.mjs provides it).
//   node bench/run.mjs locator-robustness-gtk
import '../main/backends/linux.js';
import { launchGtk3Demo, sessionEnv } from '../e2e/support/apps.js';
import { captureLocatorTree } from '../main/services/locate.js';
import { Runtime } from '../main/runtime/runtime.js';
import type { RuntimeNode } from '../main/runtime/node.js';
import { isApplication, type LocatorNode } from '../shared/locators/tree.js';
import { measure } from './_robustness.js';

if (!process.env.DISPLAY || !process.env.DBUS_SESSION_BUS_ADDRESS) {
  console.log('robustness.gtk3-demo.skipped 1 no-desktop-session');
} else {
  const app = await launchGtk3Demo(sessionEnv());
  const runtime = await Runtime.create({ providers: ['atspi'] });
  try {
    // Every node of gtk3-demo is a target: all their attributes are read, as `locate` reads a target's.
    const nodes: RuntimeNode[] = [];
    const walk = async (node: RuntimeNode): Promise<void> => {
      nodes.push(node);
      for (const child of await runtime.structuralChildren(node).catch((): readonly RuntimeNode[] => []))
        await walk(child);
    };
    for (const top of await runtime.structuralChildren(runtime.desktop)) {
      if (top.namespace === 'app' && top.name === app.name) await walk(top);
    }
    const started = performance.now();
    const tree = await captureLocatorTree(runtime, nodes);
    console.log(`robustness.gtk3-demo.capture ${(performance.now() - started).toFixed(0)} ms`);
    const own = (node: LocatorNode): boolean => {
      for (let up: LocatorNode | null = node; up; up = up.parent) if (isApplication(up)) return up.name === app.name;
      return false;
    };
    measure('robustness.gtk3-demo', tree, tree.nodes.filter(own));
  } finally {
    await runtime.shutdown();
    await app.stop();
  }
}
