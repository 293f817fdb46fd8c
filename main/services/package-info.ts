import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** This package's version, from its package.json (read once). */
export function packageVersion(): string {
  cached ??= (
    JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  return cached;
}

/** The tool named in SARIF and JUnit reports: this package's name for people and its version. */
export function checkTool(): { name: string; version: string } {
  return { name: 'PlatynUI Inspector', version: packageVersion() };
}
