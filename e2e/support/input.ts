// Real input on the session's X display through xdotool (XTEST): for tests that change an application by hand,
// e.g. clicking a fixture button to make the page add or remove nodes.
import { execFile } from 'node:child_process';

export function xdotool(env: NodeJS.ProcessEnv, args: string[], timeoutMs = 10000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('xdotool', args, { env, timeout: timeoutMs, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`xdotool ${args.join(' ')} failed: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
  });
}

/** Left-click at desktop coordinates (e.g. the centre of an element's Bounds). */
export async function clickAt(env: NodeJS.ProcessEnv, x: number, y: number): Promise<void> {
  await xdotool(env, ['mousemove', '--sync', String(Math.round(x)), String(Math.round(y)), 'click', '1']);
}

/** Types text into the focused window. Never pass secrets you would not want in a process list. */
export async function typeText(env: NodeJS.ProcessEnv, text: string): Promise<void> {
  await xdotool(env, ['type', '--delay', '5', text]);
}

/** Sends a key chord such as "ctrl+a" or "Return". */
export async function pressKey(env: NodeJS.ProcessEnv, keys: string): Promise<void> {
  await xdotool(env, ['key', keys]);
}

/** X window ids of visible windows of a process. */
export async function windowsOfPid(env: NodeJS.ProcessEnv, pid: number): Promise<string[]> {
  try {
    return (await xdotool(env, ['search', '--onlyvisible', '--pid', String(pid)])).split(/\s+/).filter(Boolean);
  } catch {
    return []; // xdotool exits 1 when nothing matches
  }
}
