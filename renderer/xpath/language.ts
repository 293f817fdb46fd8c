/**
 * XPath 3.1 as the console knows it: keywords, axes, functions and the model's namespace prefixes, and the
 * completion candidates at a cursor position (plain data, so it is testable without Monaco).
 */
import { KEYWORDS } from '../../shared/xpath/keywords.js';

export const AXES = [
  'ancestor',
  'ancestor-or-self',
  'attribute',
  'child',
  'descendant',
  'descendant-or-self',
  'following',
  'following-sibling',
  'namespace',
  'parent',
  'preceding',
  'preceding-sibling',
  'self',
] as const;

export { KEYWORDS };

export const NODE_TESTS = ['node', 'text', 'element', 'attribute', 'comment', 'document-node'] as const;

export const FUNCTIONS = [
  'boolean',
  'ceiling',
  'concat',
  'contains',
  'count',
  'data',
  'distinct-values',
  'empty',
  'ends-with',
  'exists',
  'false',
  'floor',
  'head',
  'index-of',
  'last',
  'local-name',
  'lower-case',
  'matches',
  'max',
  'min',
  'name',
  'namespace-uri',
  'normalize-space',
  'not',
  'number',
  'position',
  'replace',
  'reverse',
  'round',
  'starts-with',
  'string',
  'string-join',
  'string-length',
  'subsequence',
  'substring',
  'substring-after',
  'substring-before',
  'sum',
  'tail',
  'tokenize',
  'translate',
  'true',
  'upper-case',
] as const;

export const PREFIXES = ['control', 'item', 'app', 'native'] as const;

export type CompletionKind = 'axis' | 'function' | 'keyword' | 'prefix' | 'role' | 'attribute';

export interface CompletionCandidate {
  label: string;
  kind: CompletionKind;
  insertText: string;
  detail: string;
}

/** Roles and attribute names seen in the live tree, qualified as they are written in XPath. */
export interface Vocabulary {
  roles: Iterable<string>;
  attributes: Iterable<string>;
}

/**
 * The candidates at `offset` in `text`: after `@` attribute names; after `::` or `/` roles and node tests; after a
 * prefix and `:` the names in that namespace; otherwise everything. Filtering by the typed word is left to the editor.
 */
export function completionsAt(text: string, offset: number, vocabulary: Vocabulary): CompletionCandidate[] {
  const before = text.slice(0, offset);
  const word = /[\w.:-]*$/.exec(before)?.[0] ?? '';
  const lead = before.slice(0, before.length - word.length);
  const roles = [...new Set(vocabulary.roles)].sort();
  const attributes = [...new Set(vocabulary.attributes)].sort();
  const out: CompletionCandidate[] = [];
  const add = (label: string, kind: CompletionKind, detail: string, insertText = label) =>
    out.push({ label, kind, insertText, detail });

  if (/@\s*$/.test(lead) || /attribute\s*::\s*$/.test(lead)) {
    for (const name of attributes) add(name, 'attribute', 'attribute in the live tree');
    return out;
  }
  const prefixTyped = /^([a-z]+):/.exec(word);
  if (prefixTyped && (PREFIXES as readonly string[]).includes(prefixTyped[1]!)) {
    for (const role of roles) if (role.startsWith(`${prefixTyped[1]}:`)) add(role, 'role', 'role in the live tree');
    return out;
  }
  const step = /(\/|::|^|\[|\(|,|\|)\s*$/.test(lead);
  for (const role of roles) add(role, 'role', 'role in the live tree');
  for (const prefix of PREFIXES) add(`${prefix}:`, 'prefix', `namespace prefix (urn:platynui:${prefix})`);
  for (const axis of AXES) add(`${axis}::`, 'axis', 'axis');
  for (const test of NODE_TESTS) add(`${test}()`, 'function', 'node test');
  if (!step || lead.trim() === '' || /[[(,]\s*$/.test(lead)) {
    for (const fn of FUNCTIONS) add(`${fn}()`, 'function', 'XPath function', `${fn}(`);
    for (const keyword of KEYWORDS) add(keyword, 'keyword', 'keyword');
  }
  return out;
}

/** Line and column (1-based) of a 0-based offset, for markers. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.max(0, Math.min(offset, text.length));
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: end - start + 1 };
}
