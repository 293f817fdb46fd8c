/** D-Bus server addresses (`unix:path=/run/user/0/bus,guid=...;unix:abstract=...`), as the specification writes them. */

function unescapeValue(value: string): string {
  return value.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export interface ParsedAddress {
  transport: string;
  params: Map<string, string>;
}

/** Splits `unix:path=/x,guid=y;tcp:host=h` into its entries. */
export function parseDbusAddress(address: string): ParsedAddress[] {
  return address
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry) => {
      const colon = entry.indexOf(':');
      const transport = colon < 0 ? entry : entry.slice(0, colon);
      const params = new Map<string, string>();
      if (colon >= 0) {
        for (const pair of entry.slice(colon + 1).split(',')) {
          const eq = pair.indexOf('=');
          if (eq > 0) params.set(pair.slice(0, eq), unescapeValue(pair.slice(eq + 1)));
        }
      }
      return { transport, params };
    });
}

/**
 * The socket of the first entry of an address this client can connect to (`unix:path=` or `unix:abstract=`; an
 * abstract name gets the leading NUL Node expects), or undefined.
 */
export function unixSocketOf(address: string): string | undefined {
  for (const { transport, params } of parseDbusAddress(address)) {
    if (transport !== 'unix') continue;
    const path = params.get('path');
    if (path) return path;
    const abstract = params.get('abstract');
    if (abstract) return `\u0000${abstract}`;
  }
  return undefined;
}
