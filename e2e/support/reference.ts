// Typed access to scripts/atspi-reference.py: libatspi's own view of an application's tree (ground truth for the
// AT-SPI provider's tests, baseline for its benchmarks). Runs /usr/bin/python3 with the session's environment.
import { spawn } from 'node:child_process';
import { atspiReferenceScript, SYSTEM_PYTHON } from './paths.js';

export interface ReferenceExtents {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ReferenceNode {
  /** libatspi role name, e.g. "push button", "check box", "document web". */
  role: string;
  name: string;
  childCount: number;
  /** AT-SPI state nicks, sorted: "enabled", "focusable", "checked", ... */
  states: string[];
  /** Screen extents, null when the node has no Component interface (only with extents: true). */
  extents?: ReferenceExtents | null;
  /** D-Bus object path (only with paths: true). */
  path?: string;
  /** Absent in summary mode. */
  children: ReferenceNode[];
}

export interface ReferenceDump {
  app: { name: string; pid: number; busName: string; childCount: number };
  fields: string[];
  nodes: number;
  truncated: boolean;
  errors: number;
  /** Time libatspi spent walking (excluding Python start-up and finding the application). */
  elapsedMs: number;
  /** Absent with summary: true. */
  tree?: ReferenceNode;
}

export interface ReferenceOptions {
  pid?: number;
  name?: string;
  busName?: string;
  maxNodes?: number;
  maxDepth?: number;
  extents?: boolean;
  paths?: boolean;
  /** Fields to read besides childCount (default role, name, states). */
  fields?: ('role' | 'name' | 'states' | 'extents' | 'path')[];
  /** Counts and timing only. */
  summary?: boolean;
  /** Seconds to wait for the application to register. */
  wait?: number;
  /** Kill the script after this long (default 120 s). */
  timeoutMs?: number;
}

/** Runs the reference walker and returns its parsed output. Rejects with the script's stderr on failure. */
export function atspiReference(env: NodeJS.ProcessEnv, options: ReferenceOptions): Promise<ReferenceDump> {
  const args: string[] = [atspiReferenceScript()];
  if (options.pid !== undefined) args.push('--pid', String(options.pid));
  else if (options.name !== undefined) args.push('--name', options.name);
  else if (options.busName !== undefined) args.push('--bus-name', options.busName);
  else throw new Error('atspiReference needs pid, name or busName');
  if (options.maxNodes !== undefined) args.push('--max-nodes', String(options.maxNodes));
  if (options.maxDepth !== undefined) args.push('--max-depth', String(options.maxDepth));
  if (options.extents) args.push('--extents');
  if (options.paths) args.push('--paths');
  if (options.fields) args.push('--fields', options.fields.join(','));
  if (options.summary) args.push('--summary');
  if (options.wait !== undefined) args.push('--wait', String(options.wait));
  return new Promise((resolve, reject) => {
    const child = spawn(SYSTEM_PYTHON, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (err = (err + d).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120000);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (code, sig) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`atspi-reference.py exited with ${sig ?? code}: ${err.trim()}`));
        return;
      }
      try {
        resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as ReferenceDump);
      } catch (e) {
        reject(new Error(`atspi-reference.py printed no JSON: ${(e as Error).message}`));
      }
    });
  });
}

/** Every node of a reference tree, pre-order. */
export function* referenceNodes(node: ReferenceNode): Generator<ReferenceNode> {
  yield node;
  for (const c of node.children ?? []) yield* referenceNodes(c);
}
