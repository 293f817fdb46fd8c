/** The D-Bus message and value types of the provider's own connection (values as JavaScript values). */

export const MessageType = {
  METHOD_CALL: 1,
  METHOD_RETURN: 2,
  ERROR: 3,
  SIGNAL: 4,
} as const;

export const MessageFlag = {
  NO_REPLY_EXPECTED: 1,
} as const;

/** A value of type `v`: the contained value with its signature. */
export class Variant<T = unknown> {
  constructor(
    readonly signature: string,
    readonly value: T,
  ) {}
}

/**
 * One message. Values are JavaScript values: integers as numbers (64-bit ones as bigint), strings, booleans,
 * structs as arrays, `a{..}` as plain objects, `ay` as a Buffer, `v` as a Variant.
 */
export interface DbusMessage {
  type: number;
  serial: number;
  flags: number;
  path?: string;
  interface?: string;
  member?: string;
  errorName?: string;
  replySerial?: number;
  destination?: string;
  sender?: string;
  signature: string;
  body: unknown[];
}

/** Thrown for bytes that are not a well-formed message or value of the signature, naming what is wrong. */
export class WireFormatError extends Error {}

/** The specification's limit on the length of one message (128 MiB). */
export const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;
