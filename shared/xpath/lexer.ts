/**
 * A forgiving XPath 3.1 tokenizer for messages and name checks: it never throws, keeps every token's offsets, marks
 * unterminated strings and comments, and tells names in operand position (name tests, function names) from operator
 * names (`and`, `div`, `return`) by the XPath lexical rule (a name after an operand is an operator).
 */

export type TokenKind =
  | 'name'
  | 'string'
  | 'number'
  | 'variable'
  | 'symbol'
  | 'open'
  | 'close'
  | 'comment'
  /** A character XPath has no use for (`&`, `;`, `#` outside a literal). */
  | 'unknown';

export interface Token {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
  /** Strings and comments: whether the closing quote or `:)` was found. */
  terminated?: boolean;
  /** Names and `*`: read where an operator is expected (`and`, `div`, multiplication, ... or a misplaced word). */
  operatorPosition?: boolean;
}

const NAME_START =
  /[A-Za-z_\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F]/;
const NAME_CHAR =
  /[-.0-9A-Za-z_\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF\u200C-\u200D\u203F-\u2040\u2070-\u218F]/;

/** Longest first, so that `//` wins over `/` and `!=` over `!`. */
const SYMBOLS = [
  '::',
  '//',
  '!=',
  '<=',
  '>=',
  '<<',
  '>>',
  '||',
  ':=',
  '=>',
  '..',
  '==',
  '&&',
  '/',
  '@',
  ',',
  '=',
  '<',
  '>',
  '|',
  '+',
  '-',
  '*',
  '!',
  '?',
  '.',
  ':',
];

/** Tokens after which a name or `*` is an operator: anything that ends an operand. */
function endsOperand(token: Token | undefined): boolean {
  if (!token) return false;
  if (token.kind === 'comment') return false;
  if (token.kind === 'name') return !token.operatorPosition;
  if (token.kind === 'string' || token.kind === 'number' || token.kind === 'variable') return true;
  if (token.kind === 'close') return true;
  if (token.kind !== 'symbol') return false;
  return token.text === '.' || token.text === '..' || (token.text === '*' && !token.operatorPosition);
}

export function tokenize(xpath: string): Token[] {
  const tokens: Token[] = [];
  const n = xpath.length;
  let i = 0;
  let previous: Token | undefined;
  const push = (token: Token) => {
    tokens.push(token);
    if (token.kind !== 'comment') previous = token;
  };
  const nameAt = (at: number): number => {
    let j = at;
    if (j < n && NAME_START.test(xpath[j]!)) {
      j++;
      while (j < n && NAME_CHAR.test(xpath[j]!)) j++;
    }
    return j;
  };
  while (i < n) {
    const c = xpath[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const start = i;
    if (c === '(' && xpath[i + 1] === ':') {
      let depth = 0;
      let j = i;
      let terminated = false;
      while (j < n - 1) {
        if (xpath[j] === '(' && xpath[j + 1] === ':') {
          depth++;
          j += 2;
        } else if (xpath[j] === ':' && xpath[j + 1] === ')') {
          j += 2;
          if (--depth === 0) {
            terminated = true;
            break;
          }
        } else j++;
      }
      i = terminated ? j : n;
      push({ kind: 'comment', text: xpath.slice(start, i), start, end: i, terminated });
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let terminated = false;
      while (j < n) {
        if (xpath[j] === c) {
          if (xpath[j + 1] === c) {
            j += 2;
            continue;
          }
          terminated = true;
          j++;
          break;
        }
        j++;
      }
      i = j;
      push({ kind: 'string', text: xpath.slice(start, i), start, end: i, terminated });
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(xpath[i + 1] ?? ''))) {
      const match = /^(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?/.exec(xpath.slice(i))!;
      i += match[0].length;
      push({ kind: 'number', text: match[0], start, end: i });
      continue;
    }
    if (c === '$') {
      const end = nameAt(i + 1);
      i = end > i + 1 ? end : i + 1;
      push({ kind: 'variable', text: xpath.slice(start, i), start, end: i });
      continue;
    }
    if (c === 'Q' && xpath[i + 1] === '{') {
      const close = xpath.indexOf('}', i + 2);
      if (close > 0) {
        i = nameAt(close + 1);
        if (xpath[i] === '*' && i === close + 1) i++;
        push({ kind: 'name', text: xpath.slice(start, i), start, end: i, operatorPosition: endsOperand(previous) });
        continue;
      }
    }
    if (NAME_START.test(c) || (c === '*' && xpath[i + 1] === ':' && NAME_START.test(xpath[i + 2] ?? ''))) {
      let j = c === '*' ? i + 1 : nameAt(i);
      // prefix:local, prefix:* and *:local, but not the axis separator `::`.
      if (xpath[j] === ':' && xpath[j + 1] !== ':') {
        if (xpath[j + 1] === '*' && c !== '*') j += 2;
        else if (NAME_START.test(xpath[j + 1] ?? '')) j = nameAt(j + 1);
      }
      i = j;
      push({ kind: 'name', text: xpath.slice(start, i), start, end: i, operatorPosition: endsOperand(previous) });
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      i++;
      push({ kind: 'open', text: c, start, end: i });
      continue;
    }
    if (c === ')' || c === ']' || c === '}') {
      i++;
      push({ kind: 'close', text: c, start, end: i });
      continue;
    }
    const symbol = SYMBOLS.find((s) => xpath.startsWith(s, i));
    if (symbol) {
      i += symbol.length;
      const token: Token = { kind: 'symbol', text: symbol, start, end: i };
      // `*` is a name test where an operand is expected, multiplication after one.
      if (symbol === '*') token.operatorPosition = endsOperand(previous);
      push(token);
      continue;
    }
    i++;
    push({ kind: 'unknown', text: c, start, end: i });
  }
  return tokens;
}

/** Tokens without comments (what the grammar sees). */
export function significantTokens(xpath: string): Token[] {
  return tokenize(xpath).filter((token) => token.kind !== 'comment');
}
