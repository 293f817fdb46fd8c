import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InspectorClient } from '../../../shared/api/client.js';
import type { InspectorEvent } from '../../../shared/api/schema.js';
import type { Point } from '../../../shared/model/values.js';

// CLI `pick --at` and picking through the API (as the UI does) compared at the same points.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const bin = path.join(root, 'bin/platynui-inspector');

/** The runtime id CLI `pick --at x,y` names (a separate process), or null when it names none. */
export function pickedByCli(env: NodeJS.ProcessEnv, runtimeFlags: readonly string[], point: Point): string | null {
  const result = spawnSync(
    process.execPath,
    [bin, 'pick', '--at', `${point.x},${point.y}`, '--format', 'json', '--attrs', 'none', ...runtimeFlags],
    { encoding: 'utf8', timeout: 60_000, env },
  );
  if (result.status !== 0) throw new Error(`pick --at ${point.x},${point.y} failed: ${result.stderr}`);
  const nodes = JSON.parse(result.stdout) as Array<{ runtimeId: string }>;
  return nodes[0]?.runtimeId ?? null;
}

type Hover = Extract<InspectorEvent, { type: 'pick.hover' }>;

/**
 * Picking through the API: one pick.start, then for each (distinct) point the pointer moves there and the pick.hover
 * reported at that point names the element (null for none). Stops picking at the end.
 */
export async function pickedByApi(
  client: InspectorClient,
  moveTo: (point: Point) => Promise<void>,
  points: readonly Point[],
  timeoutMs = 10_000,
): Promise<Array<string | null>> {
  const hovers: Hover[] = [];
  const off = client.on('pick.hover', (event) => hovers.push(event));
  const named: Array<string | null> = [];
  try {
    await client.startPick(20);
    // The points are distinct, so a hover at a point is the one reported after the pointer moved there.
    for (const point of points) {
      await moveTo(point);
      const deadline = Date.now() + timeoutMs;
      let hover: Hover | undefined;
      while (!(hover = hovers.find((event) => event.point.x === point.x && event.point.y === point.y))) {
        if (Date.now() > deadline) throw new Error(`no pick.hover at ${point.x},${point.y}: ${JSON.stringify(hovers)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      named.push(hover.node?.runtimeId ?? null);
    }
  } finally {
    off();
    await client.stopPick();
  }
  return named;
}
