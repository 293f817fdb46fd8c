/**
 * Typos that XPath answers with "0 results": element and attribute names no node has. The names an expression
 * tests are checked against the names known (the live tree's and the providers' catalog); an unknown one gets a
 * message and, where one is close, a suggestion (`//Buton` -> `Button`, `@Nam` -> `@Name`, `[Name='Apply']` ->
 * `@Name`). Plain data, so the editor, the console and tests share it.
 */
import { significantTokens, type Token } from './lexer.js';
import { closestName } from './suggest.js';

/** Names as they are written in XPath: `Button`, `item:TableRow`, `app:Application`; `Name`, `native:Role`. */
export interface NameVocabulary {
  elements: ReadonlySet<string>;
  attributes: ReadonlySet<string>;
}

export interface NameProblem {
  kind: 'element' | 'attribute';
  /** The name as written. */
  name: string;
  /** Offsets of the name in the expression (end exclusive). */
  start: number;
  end: number;
  message: string;
  /** What to write instead (`Button`, `@Name`), when something close is known. */
  replacement?: string;
}

const CHECKED_PREFIXES = new Set(['', 'control', 'item', 'app', 'native']);
/** `instance of`, `treat as`, `cast as`, `castable as`: the second word and the type after it are no name tests. */
const TYPE_INTRODUCERS = new Set(['instance', 'treat', 'cast', 'castable']);
const TYPE_WORDS = new Set(['of', 'as']);
/** Keywords that start an expression where a name test could stand (`for $x`, `if (`, `some $x`). */
const LEADING_KEYWORDS = new Set(['for', 'let', 'some', 'every', 'if']);

function prefixOf(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? '' : name.slice(0, colon);
}

/** `control:Button` and `Button` are the same element; `@control:Name` the same attribute as `@Name`. */
function canonical(name: string): string {
  return name.startsWith('control:') ? name.slice('control:'.length) : name;
}

function isWildcard(name: string): boolean {
  return name.includes('*');
}

/** Whether the name test at `index` is on the attribute axis (`@Name`, `attribute::Name`). */
function onAttributeAxis(tokens: Token[], index: number): boolean {
  const before = tokens[index - 1];
  if (before?.kind === 'symbol' && before.text === '@') return true;
  return before?.kind === 'symbol' && before.text === '::' && tokens[index - 2]?.text === 'attribute';
}

function insidePredicate(tokens: Token[], index: number): boolean {
  let depth = 0;
  for (let i = index - 1; i >= 0; i--) {
    const token = tokens[i]!;
    if (token.kind === 'close') depth++;
    else if (token.kind === 'open') {
      if (depth === 0) return token.text === '[';
      depth--;
    }
  }
  return false;
}

/** The names tested in `xpath` that the vocabulary does not know; nothing for a kind the vocabulary has no names of. */
export function checkNames(xpath: string, vocabulary: NameVocabulary): NameProblem[] {
  const tokens = significantTokens(xpath);
  const problems: NameProblem[] = [];
  const elements = [...vocabulary.elements].map(canonical);
  const attributes = [...vocabulary.attributes].map(canonical);
  const knownElements = new Set(elements);
  const knownAttributes = new Set(attributes);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind !== 'name' || token.operatorPosition || isWildcard(token.text)) continue;
    const next = tokens[i + 1];
    if (next?.kind === 'open' && next.text === '(') continue; // a function or node test
    if (next?.kind === 'symbol' && next.text === '::') continue; // an axis
    const before = tokens[i - 1];
    if (before?.kind === 'name' && before.operatorPosition && TYPE_INTRODUCERS.has(before.text)) continue;
    if (before?.kind === 'name' && TYPE_WORDS.has(before.text) && TYPE_INTRODUCERS.has(tokens[i - 2]?.text ?? ''))
      continue;
    if (LEADING_KEYWORDS.has(token.text) && (next?.kind === 'variable' || next?.text === '(')) continue;
    if (token.text.startsWith('Q{') || !CHECKED_PREFIXES.has(prefixOf(token.text))) continue;
    const name = canonical(token.text);
    const at = { name: token.text, start: token.start, end: token.end };
    if (onAttributeAxis(tokens, i)) {
      if (knownAttributes.size === 0 || knownAttributes.has(name)) continue;
      const suggestion = closestName(name, attributes);
      problems.push({
        kind: 'attribute',
        ...at,
        message: `No attribute is called ${name}${suggestion ? `; did you mean @${suggestion}?` : ''}`,
        ...(suggestion ? { replacement: suggestion } : {}),
      });
      continue;
    }
    if (knownElements.size === 0 || knownElements.has(name)) continue;
    if (knownAttributes.has(name) && insidePredicate(tokens, i)) {
      problems.push({
        kind: 'element',
        ...at,
        message: `${name} is an attribute, written @${name}; without @ it looks for child elements called ${name}`,
        replacement: `@${name}`,
      });
      continue;
    }
    const suggestion = closestName(name, elements);
    problems.push({
      kind: 'element',
      ...at,
      message: `No element is called ${name}${suggestion ? `; did you mean ${suggestion}?` : ''}`,
      ...(suggestion ? { replacement: suggestion } : {}),
    });
  }
  return problems;
}
