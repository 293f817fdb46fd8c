/**
 * Options a backend defines for itself, keyed by the backend's id: `{ mock: { file: 'tree.xml' } }`. The core passes
 * them to every provider and platform factory unread; only the backend named by the key interprets its entry.
 */
export type BackendOptionValue = string | number | boolean;

export interface BackendOptions {
  readonly [backendId: string]: { readonly [name: string]: BackendOptionValue | undefined } | undefined;
}

/** One string option of one backend, or undefined when it is not set (or not a string). */
export function backendOption(
  options: BackendOptions | undefined,
  backendId: string,
  name: string,
): string | undefined {
  const value = options?.[backendId]?.[name];
  return typeof value === 'string' ? value : undefined;
}
