// Locations inside the project, valid both from the sources and from the compiled dist/ tree.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The project root: the nearest directory above this file with the project's package.json. */
export function projectRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'platynui-inspector') {
      return (root = dir);
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('project root (package.json of platynui-inspector) not found');
    dir = up;
  }
}

/** The python interpreter with the gi module (the system one, not a pyenv shim). */
export const SYSTEM_PYTHON = '/usr/bin/python3';

/** scripts/atspi-reference.py */
export function atspiReferenceScript(): string {
  return path.join(projectRoot(), 'scripts', 'atspi-reference.py');
}
