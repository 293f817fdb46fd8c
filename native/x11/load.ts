import koffi from 'koffi';
import type { LibraryHandle, TypeObject } from 'koffi';
import { InspectorError } from '../../shared/model/errors.js';

/** A native pointer as koffi 3 hands it out (BigInt), or null for NULL. */
export type Pointer = bigint | null;

const loaded = new Map<string, LibraryHandle>();

/**
 * Loads a shared library by its soname (libX11.so.6, never the unversioned development link). A missing library is
 * an InspectorError naming the library and the Debian package that provides it.
 */
export function loadLibrary(soname: string, packageName: string, purpose: string): LibraryHandle {
  const cached = loaded.get(soname);
  if (cached) return cached;
  try {
    const lib = koffi.load(soname);
    loaded.set(soname, lib);
    return lib;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InspectorError(
      'provider-unavailable',
      `${soname} is needed for ${purpose} but could not be loaded (${reason}); install the ${packageName} package`,
    );
  }
}

/** Declares a C function from a prototype and gives it a TypeScript signature. */
export function declare<T>(lib: LibraryHandle, prototype: string): T {
  return lib.func(prototype) as unknown as T;
}

/** Copies `length` bytes of native memory into a fresh Uint8Array. */
export function copyBytes(pointer: bigint, length: number): Uint8Array {
  if (length === 0) return new Uint8Array(0);
  return koffi.decode(pointer, koffi.array('uint8_t', length, 'Typed')) as Uint8Array;
}

/** Reads `count` C `unsigned long` values (64-bit on LP64) as numbers (X ids and format-32 properties). */
export function readULongs(pointer: bigint, count: number): number[] {
  if (count === 0) return [];
  const values = koffi.decode(pointer, koffi.array('unsigned long', count, 'Typed')) as ArrayLike<number | bigint>;
  return Array.from(values, (value) => Number(value));
}

export function readStruct<T>(pointer: bigint, type: TypeObject): T {
  return koffi.decode(pointer, type) as T;
}

export { koffi };
