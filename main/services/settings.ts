import { existsSync, readFileSync, renameSync, statSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Settings } from '../../shared/api/schema.js';
import { InspectorError, toInspectorError } from '../../shared/model/errors.js';

export function defaultSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(base, 'platynui-inspector', 'settings.json');
}

/** How long writes are gathered before one goes to disk (a burst of changes is one write). */
const WRITE_DELAY_MS = 100;

/**
 * The settings of one host: in memory, bounded in size, written to disk asynchronously and coalesced (the latest
 * state wins, one write at a time, never a synchronous stall), flushed on close.
 */
export class SettingsStore {
  private settings: Settings;
  private bytes: number;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;
  /** The last write's failure, reported by the next set() (a write happens after its answer went out). */
  private failure: InspectorError | undefined;

  constructor(
    private readonly file: string,
    private readonly maxBytes: number,
    private readonly warn: (message: string) => void = (message) =>
      process.stderr.write(`platynui-inspector: ${message}\n`),
  ) {
    this.settings = this.read();
    this.bytes = Buffer.byteLength(JSON.stringify(this.settings));
  }

  /** A file over the limit is moved aside (kept, never overwritten) and the host starts with empty settings. */
  private read(): Settings {
    if (!existsSync(this.file)) return {};
    try {
      const size = statSync(this.file).size;
      const limit = this.maxBytes;
      // the file is pretty-printed: allow its whitespace on top of the limit
      if (size > limit * 2 + 1024) {
        const aside = `${this.file}.too-large`;
        renameSync(this.file, aside);
        this.warn(`${this.file} is ${size} bytes, over the settings limit of ${limit}; moved to ${aside}`);
        return {};
      }
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      return data && typeof data === 'object' && !Array.isArray(data) ? (data as Settings) : {};
    } catch (error) {
      this.warn(`settings in ${this.file} could not be read: ${toInspectorError(error).message}`);
      return {};
    }
  }

  get(): Settings {
    return { ...this.settings };
  }

  get size(): number {
    return this.bytes;
  }

  /** Merges (null removes a key); refuses, changing nothing, when the result would pass the size limit. */
  set(values: Settings): { changed: string[]; bytes: number } {
    if (this.failure) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
    const next: Settings = { ...this.settings };
    const changed: string[] = [];
    for (const [key, value] of Object.entries(values)) {
      if (value === null) delete next[key];
      else next[key] = value;
      changed.push(key);
    }
    const bytes = Buffer.byteLength(JSON.stringify(next));
    const limit = this.maxBytes;
    if (bytes > limit) {
      throw new InspectorError(
        'limit-exceeded',
        `the settings would be ${bytes} bytes, over the limit of ${limit} (limits.maxSettingsBytes); nothing was changed`,
      );
    }
    this.settings = next;
    this.bytes = bytes;
    this.schedule();
    return { changed, bytes };
  }

  private schedule(): void {
    this.dirty = true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, WRITE_DELAY_MS);
  }

  private async write(): Promise<void> {
    if (this.writing) return this.writing;
    this.writing = (async () => {
      while (this.dirty) {
        this.dirty = false;
        const text = `${JSON.stringify(this.settings, null, 2)}\n`;
        const temp = `${this.file}.${process.pid}.tmp`;
        try {
          await mkdir(path.dirname(this.file), { recursive: true });
          await writeFile(temp, text, { mode: 0o600 });
          await rename(temp, this.file);
        } catch (error) {
          this.failure = new InspectorError(
            'internal',
            `settings could not be saved to ${this.file}: ${toInspectorError(error).message}`,
          );
          this.warn(this.failure.message);
        }
      }
    })();
    try {
      await this.writing;
    } finally {
      this.writing = undefined;
    }
  }

  /** Writes what is pending now. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
    if (this.dirty) await this.write();
  }
}
