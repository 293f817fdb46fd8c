/** XPath 3.1's reserved words, for the console's highlighting and completion and for the error messages. */

/** Words that join two operands (`a and b`, `1 to 3`, `for $x in ... return ...`, `if (...) then ... else ...`). */
export const BINARY_OPERATOR_WORDS = [
  'and',
  'or',
  'div',
  'idiv',
  'mod',
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'is',
  'to',
  'union',
  'intersect',
  'except',
  'in',
  'return',
  'satisfies',
  'then',
  'else',
] as const;

/** Words of the type operators (`instance of`, `treat as`, `castable as`, `cast as`). */
export const TYPE_OPERATOR_WORDS = ['instance', 'of', 'treat', 'as', 'castable', 'cast'] as const;

/** Every keyword: the operators, then the words that open an expression. */
export const KEYWORDS = [
  ...BINARY_OPERATOR_WORDS,
  ...TYPE_OPERATOR_WORDS,
  'for',
  'let',
  'some',
  'every',
  'if',
] as const;
