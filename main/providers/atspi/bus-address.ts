/**
 * D-Bus addresses in the form dbus-next can open without its optional native `usocket` module: a `unix:path=` or
 * `unix:abstract=` address becomes `unix:socket=<path>` (an abstract name gets a leading NUL), which dbus-next hands
 * straight to `net.createConnection`.
 */

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

/** The first entry of an address that dbus-next can connect to without `usocket`, or undefined. */
export function toDbusNextAddress(address: string): string | undefined {
  for (const { transport, params } of parseDbusAddress(address)) {
    if (transport === 'unix') {
      const path = params.get('path') ?? params.get('socket');
      if (path) return `unix:socket=${path}`;
      const abstract = params.get('abstract');
      if (abstract) return `unix:socket=\u0000${abstract}`;
    } else if (transport === 'tcp') {
      const host = params.get('host') ?? 'localhost';
      const port = params.get('port');
      if (port) return `tcp:host=${host},port=${port}`;
    }
  }
  return undefined;
}
