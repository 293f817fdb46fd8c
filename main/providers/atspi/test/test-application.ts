import type { ApplicationData } from '../node-data.js';
import { newApplicationData } from '../node-data.js';

/** An application's data as a bulk load from a complete cache leaves it, for unit tests of nodes' attributes. */
export function loadedApplication(): ApplicationData {
  const app = newApplicationData(':1.5', [':1.5', '/org/a11y/atspi/accessible/root']);
  app.bulk = 'loaded';
  app.loadedBy = 'Cache.GetItems';
  return app;
}
