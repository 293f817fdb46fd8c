// The Electron main process (package.json "main"). The only module that imports electron; everything else is in
// shell.ts, written against an interface so that it is tested without Electron.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as electron from 'electron';
import { parseShellArgs, startShell, type ElectronLike } from './shell.js';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { shortcut, runtime } = parseShellArgs(process.argv.slice(2));

startShell(electron as unknown as ElectronLike, {
  distDir,
  runtime,
  ...(shortcut ? { shortcut } : {}),
  files: {
    readFile: (file) => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
    },
    writeFile: (file, text) => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    },
  },
  log: (message) => process.stderr.write(`platynui-inspector: ${message}\n`),
});
