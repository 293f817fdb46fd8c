/**
 * XPath errors in plain words with their column: "Expected a value after '=' at column 16", "Unknown function
 * contain() at column 10; did you mean contains()?". The engine's raw text (its expected-token lists, `Q{uri}`
 * names, error codes) never reaches the user; where nothing better can be said, the offending token is named.
 */
import { positionAt, type ErrorCode, type SourcePosition } from '../model/errors.js';
import { NAMESPACES, NAMESPACE_URIS } from '../model/namespaces.js';
import { BINARY_OPERATOR_WORDS, TYPE_OPERATOR_WORDS } from './keywords.js';
import { significantTokens, tokenize, type Token } from './lexer.js';
import { closestName } from './suggest.js';

export interface XPathErrorExplanation {
  code: ErrorCode;
  message: string;
  position: SourcePosition;
}

/** What the engine reported: its error code (XPST0003, ...), its text and the offset it pointed at. */
export interface EngineError {
  engineCode: string;
  text: string;
  offset: number | undefined;
}

const KNOWN_NAMESPACES: ReadonlyArray<[string, string]> = [
  ['http://www.w3.org/2005/xpath-functions', ''],
  ['http://www.w3.org/2005/xpath-functions/map', 'map:'],
  ['http://www.w3.org/2005/xpath-functions/array', 'array:'],
  ['http://www.w3.org/2005/xpath-functions/math', 'math:'],
  ['http://www.w3.org/2001/XMLSchema', 'xs:'],
  ...NAMESPACES.map((ns): [string, string] => [NAMESPACE_URIS[ns], ns === 'control' ? '' : `${ns}:`]),
];

/** `column 16` for a one-line expression, `line 2, column 5` otherwise. */
export function whereIn(xpath: string, position: SourcePosition): string {
  return xpath.includes('\n') ? `line ${position.line}, column ${position.column}` : `column ${position.column}`;
}

/** `Q{http://www.w3.org/2005/xpath-functions}contains` as the user writes it: `contains`, `map:get`, `xs:integer`. */
export function readableName(uri: string, local: string): string {
  const prefix = KNOWN_NAMESPACES.find(([known]) => known === uri)?.[1];
  return `${prefix ?? ''}${local}`;
}

function withoutExpandedNames(text: string): string {
  return text.replace(/Q\{([^}]*)\}([\w.*-]+)/g, (_, uri: string, local: string) => readableName(uri, local));
}

const BINARY_WORDS: ReadonlySet<string> = new Set(BINARY_OPERATOR_WORDS);
/** Words that follow an operand without being binary operators (`instance of`, `cast as`, ...). */
const OPERATOR_WORDS: ReadonlySet<string> = new Set([...BINARY_OPERATOR_WORDS, ...TYPE_OPERATOR_WORDS]);
const BINARY_SYMBOLS = new Set(['=', '!=', '<', '<=', '>', '>=', '<<', '>>', '|', '||', '+', '-', '!', '=>', ',']);

function isBinaryOperator(token: Token): boolean {
  if (token.kind === 'name') return token.operatorPosition === true && BINARY_WORDS.has(token.text);
  if (token.kind === 'symbol')
    return BINARY_SYMBOLS.has(token.text) || (token.text === '*' && !!token.operatorPosition);
  return false;
}

/** Where an operand cannot start: the end, a closing bracket, a comma, or a binary operator that is not also a sign. */
function cannotStartOperand(token: Token | undefined): boolean {
  if (!token) return true;
  if (token.kind === 'close') return true;
  if (token.kind === 'symbol') return token.text !== '-' && token.text !== '+' && isBinaryOperator(token);
  if (token.kind === 'name') return token.operatorPosition === true && BINARY_WORDS.has(token.text);
  return false;
}

function endsOperand(token: Token): boolean {
  if (token.kind === 'string' || token.kind === 'number' || token.kind === 'variable' || token.kind === 'close')
    return true;
  if (token.kind === 'name') return !token.operatorPosition;
  return token.kind === 'symbol' && (token.text === '.' || token.text === '..' || token.text === '*');
}

/** A syntax error found by reading the tokens, or undefined when they look fine (the engine's offset then counts). */
function syntaxProblem(xpath: string, tokens: Token[]): { message: string; offset: number } | undefined {
  const at = (offset: number) => whereIn(xpath, positionAt(xpath, offset));
  for (const token of tokens) {
    if (token.kind === 'string' && !token.terminated)
      return { message: `The string that starts at ${at(token.start)} is never closed`, offset: token.start };
  }
  const comment = findOpenComment(xpath);
  if (comment !== undefined)
    return { message: `The comment that starts at ${at(comment)} is never closed`, offset: comment };
  const open: Token[] = [];
  // Kept until the end: an operator without its value says more than the bracket it leaves open.
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  for (const token of tokens) {
    if (token.kind === 'open') open.push(token);
    else if (token.kind === 'close') {
      const opener = open.pop();
      if (!opener) return { message: `Unexpected '${token.text}' at ${at(token.start)}`, offset: token.start };
      if (opener.text !== pairs[token.text]) {
        return {
          message: `Expected '${closing(opener.text)}' to close the '${opener.text}' at ${at(opener.start)}, found '${token.text}' at ${at(token.start)}`,
          offset: token.start,
        };
      }
    }
  }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const next = tokens[i + 1];
    const after = next ? next.start : xpath.length;
    if (token.kind === 'unknown')
      return { message: `Unexpected '${token.text}' at ${at(token.start)}`, offset: token.start };
    if (token.kind === 'symbol' && token.text === '==')
      return {
        message: `'==' is not an XPath operator (at ${at(token.start)}); compare with '='`,
        offset: token.start,
      };
    if (token.kind === 'symbol' && token.text === '&&')
      return { message: `'&&' is not an XPath operator (at ${at(token.start)}); write 'and'`, offset: token.start };
    if (token.kind === 'symbol' && token.text === '@' && !(next?.kind === 'name' || next?.text === '*'))
      return { message: `Expected an attribute name after '@' at ${at(after)}`, offset: after };
    if (token.kind === 'symbol' && token.text === '::' && !(next?.kind === 'name' || next?.text === '*'))
      return { message: `Expected a name after '::' at ${at(after)}`, offset: after };
    if (token.kind === 'symbol' && (token.text === '/' || token.text === '//')) {
      const lone = token.text === '/' && (i === 0 || tokens[i - 1]!.kind === 'open') && cannotStartOperand(next);
      if (!lone && (cannotStartOperand(next) || next?.text === '/' || next?.text === '//'))
        return { message: `Expected a step after '${token.text}' at ${at(after)}`, offset: after };
    }
    if (token.kind === 'open' && token.text === '[' && next?.kind === 'close')
      return { message: `Expected a condition inside '[]' at ${at(after)}`, offset: after };
    if (isBinaryOperator(token) && cannotStartOperand(next)) {
      if (token.text === ',' && next?.kind === 'close' && next.text !== ']')
        return { message: `Expected a value after ',' at ${at(after)}`, offset: after };
      return { message: `Expected a value after '${token.text}' at ${at(after)}`, offset: after };
    }
    if (isBinaryOperator(token) && i === 0 && token.text !== '-' && token.text !== '+')
      return { message: `Expected a value before '${token.text}' at ${at(token.start)}`, offset: token.start };
    if (next && endsOperand(token) && startsOperandAfterOperand(next)) {
      const what = next.kind === 'name' ? `'${next.text}'` : next.kind === 'string' ? 'a string' : `'${next.text}'`;
      return {
        message: `Unexpected ${what} at ${at(next.start)}; an operator such as 'and', '=' or '/' is missing before it`,
        offset: next.start,
      };
    }
  }
  const unclosed = open[0];
  if (unclosed)
    return { message: `The '${unclosed.text}' at ${at(unclosed.start)} is never closed`, offset: unclosed.start };
  return undefined;
}

/** An operand directly after another: two values with no operator between them. */
function startsOperandAfterOperand(next: Token): boolean {
  if (next.kind === 'string' || next.kind === 'number' || next.kind === 'variable') return true;
  // A name where an operator belongs that is no operator word is a misplaced word (`[@A='x' adn @B]`). Brackets
  // after an operand are predicates and calls (`][`, `)(`), so they are fine.
  return next.kind === 'name' && next.operatorPosition === true && !OPERATOR_WORDS.has(next.text);
}

function closing(open: string): string {
  return open === '(' ? ')' : open === '[' ? ']' : '}';
}

function findOpenComment(xpath: string): number | undefined {
  return tokenize(xpath).find((token) => token.kind === 'comment' && !token.terminated)?.start;
}

interface FunctionSignature {
  name: string;
  arity: number | 'variadic';
}

function signaturesIn(text: string): FunctionSignature[] {
  const out: FunctionSignature[] = [];
  for (const match of text.matchAll(/"Q\{([^}]*)\}([\w.-]+) \(([^)]*)\)"/g)) {
    const args = match[3]!.trim();
    const name = readableName(match[1]!, match[2]!);
    if (args.includes('...')) out.push({ name, arity: 'variadic' });
    else out.push({ name, arity: args === '' ? 0 : args.split(',').length });
  }
  return out;
}

function unknownFunction(xpath: string, text: string, offset: number): string | undefined {
  const match = /Function (?:Q\{([^}]*)\})?([\w.-]+) with arity of (\d+) not registered/.exec(text);
  if (!match) return undefined;
  const name = readableName(match[1] ?? '', match[2]!);
  const arity = Number(match[3]);
  const where = whereIn(xpath, positionAt(xpath, offset));
  const signatures = signaturesIn(text);
  const same = signatures.filter((signature) => signature.name === name);
  if (same.length > 0) {
    const arities = [...new Set(same.map((s) => (s.arity === 'variadic' ? 'more' : String(s.arity))))].sort();
    const takes = arities.length === 1 ? arities[0]! : `${arities.slice(0, -1).join(', ')} or ${arities.at(-1)!}`;
    const noun = arities.length === 1 && arities[0] === '1' ? 'argument' : 'arguments';
    return `${name}() takes ${takes} ${noun}, not ${arity} (at ${where})`;
  }
  const suggestion = closestName(
    name,
    signatures.map((s) => s.name),
  );
  return `Unknown function ${name}() at ${where}${suggestion ? `; did you mean ${suggestion}()?` : ''}`;
}

/** fontoxpath's names for arithmetic operators in its type errors. */
const OPERATOR_SIGNS: Readonly<Record<string, string>> = {
  add: '+',
  subtract: '-',
  multiply: '*',
  div: 'div',
  idiv: 'idiv',
  mod: 'mod',
  unaryplus: '+',
  unaryminus: '-',
};

/** The engine's error as a message a person understands, with its code and position. */
export function explainXPathError(xpath: string, error: EngineError): XPathErrorExplanation {
  const engineOffset = error.offset ?? 0;
  const position = (offset: number) => positionAt(xpath, offset);
  const where = whereIn(xpath, position(engineOffset));
  const code: ErrorCode =
    error.engineCode.startsWith('XPST') || error.engineCode.startsWith('XQST')
      ? 'xpath-syntax'
      : error.engineCode.startsWith('XPTY')
        ? 'xpath-type'
        : 'xpath-evaluation';
  switch (error.engineCode) {
    case 'XPST0003': {
      const tokens = significantTokens(xpath);
      const found = syntaxProblem(xpath, tokens);
      if (found) return { code, message: found.message, position: position(found.offset) };
      const token = tokens.find((t) => t.start >= engineOffset);
      const message = token
        ? `Unexpected '${token.text}' at ${whereIn(xpath, position(token.start))}`
        : `The expression ends too early at ${whereIn(xpath, position(xpath.length))}`;
      return { code, message, position: position(token ? token.start : xpath.length) };
    }
    case 'XPST0017': {
      const message = unknownFunction(xpath, error.text, engineOffset);
      if (message) return { code, message, position: position(engineOffset) };
      break;
    }
    case 'XPST0081': {
      const prefix = /prefix ([\w.-]+)/.exec(error.text)?.[1];
      if (prefix)
        return {
          code,
          message: `Unknown namespace prefix '${prefix}' at ${where} (known prefixes: control, item, app, native)`,
          position: position(engineOffset),
        };
      break;
    }
    case 'XPST0008': {
      const name = /variable ([\w.-]+)/.exec(error.text)?.[1];
      if (name) return { code, message: `Unknown variable $${name} at ${where}`, position: position(engineOffset) };
      break;
    }
  }
  const detail = withoutExpandedNames(error.text)
    .replace(/\b(\w+)Op not available for types (\S+) and (\S+)/, (_, op: string, left: string, right: string) => {
      return `'${OPERATOR_SIGNS[op.toLowerCase()] ?? op}' cannot combine ${left} and ${right}`;
    })
    .replace(/^\s*(?:Error:\s*)?(?:[A-Z]{4}\d{4}[:,]\s*)?/, '')
    .replace(/\.\s*$/, '')
    .slice(0, 300);
  const sentence = detail ? detail[0]!.toUpperCase() + detail.slice(1) : 'The expression could not be evaluated';
  return { code, message: `${sentence} (at ${where})`, position: position(engineOffset) };
}
