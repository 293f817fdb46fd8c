/**
 * Names for characters that a key sequence cannot write as themselves (`<Ctrl+PLUS>`): the runtime's key sequences
 * and every platform's key names accept them.
 */
const symbolAliases: { readonly [alias: string]: string } = {
  plus: '+',
  minus: '-',
  less: '<',
  lt: '<',
  greater: '>',
  gt: '>',
};

/** Resolves PLUS/MINUS/LESS/LT/GREATER/GT (any case) to the character; other names come back unchanged. */
export function resolveSymbolAlias(name: string): string {
  return symbolAliases[name.toLowerCase()] ?? name;
}
