/**
 * The part of an exported test file a test author pastes into an existing one: the locator's variable and the test
 * case (Robot Framework), the LOCATORS table (python), the find function (dogtail). The whole file when the text
 * has none of these (a template changed): never an empty preview.
 */
import type { CodeFormat } from '../stores/locators-store.js';

function between(text: string, start: RegExp, end: RegExp): string | undefined {
  const lines = text.split('\n');
  const from = lines.findIndex((line) => start.test(line));
  if (from < 0) return undefined;
  const length = lines.slice(from + 1).findIndex((line) => end.test(line));
  return lines
    .slice(from, length < 0 ? undefined : from + 1 + length)
    .join('\n')
    .trimEnd();
}

export function codeSnippet(format: CodeFormat, text: string): string {
  let snippet: string | undefined;
  if (format === 'robot') {
    const variables = text.split('\n').filter((line) => /^\$\{LOCATOR_\d+\}/.test(line));
    const testCase = between(text, /^\*\*\* Test Cases \*\*\*/, /^\*\*\* /);
    snippet = variables.length && testCase ? `${variables.join('\n')}\n\n${testCase}` : undefined;
  } else if (format === 'python') snippet = between(text, /^LOCATORS = \[/, /^\]/)?.concat('\n]');
  else snippet = between(text, /^def find_\d+\(/, /^\S/);
  return snippet ?? text;
}
