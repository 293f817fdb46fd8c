import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Settings } from '../../shared/api/schema.js';
import { InspectorError, toInspectorError } from '../../shared/model/errors.js';

export function defaultSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(base, 'platynui-inspector', 'settings.json');
}

/** The host's settings, read once from their file and written back whole (atomically) on every change. */
export class SettingsStore {
  private settings: Settings;

  constructor(private readonly file: string) {
    this.settings = readSettings(file);
  }

  get(): Settings {
    return { ...this.settings };
  }

  /** Merges the values in (null removes a key), saves and returns the new settings. */
  set(values: Settings): Settings {
    const next: Settings = { ...this.settings };
    for (const [key, value] of Object.entries(values)) {
      if (value === null) delete next[key];
      else next[key] = value;
    }
    this.settings = next;
    writeSettings(this.file, next);
    return { ...next };
  }
}

function readSettings(file: string): Settings {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Settings) : {};
  } catch {
    return {};
  }
}

function writeSettings(file: string, settings: Settings): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, file);
  } catch (error) {
    throw new InspectorError('internal', `settings could not be saved to ${file}: ${toInspectorError(error).message}`);
  }
}
