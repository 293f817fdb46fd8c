import { declare, koffi, loadLibrary } from './load.js';
import type { Display } from './xlib.js';

/**
 * koffi bindings to the RECORD extension (libXtst.so.6, record.h): a copy of the device events the server processes,
 * delivered to a second connection without grabbing anything, so the user's input is never held up.
 */

/** XRecordAllClients: record the input of every client, present and future. */
export const XRecordAllClients = 3;
/** XRecordInterceptData.category values (record.h). */
export const XRecordFromServer = 0;
/**
 * XRecordRange (LP64): core_requests 0, core_replies 2, ext_requests 4 (6 bytes), ext_replies 10 (6 bytes),
 * delivered_events 16, device_events 18 (first, last: one byte each), errors 20, client_started 24, client_died 28.
 */
export const XRecordRangeOffsets = { deviceEventsFirst: 18, deviceEventsLast: 19, size: 32 } as const;
/** XRecordInterceptData (LP64): id_base 0, server_time 8, client_seq 16, category 24, client_swapped 28, data 32, data_len 40. */
export const XRecordInterceptData = koffi.struct('PlatynXRecordInterceptData', {
  id_base: 'unsigned long',
  server_time: 'unsigned long',
  client_seq: 'unsigned long',
  category: 'int',
  client_swapped: 'int',
  data: 'void *',
  data_len: 'unsigned long',
});

export interface XRecordInterceptDataValue {
  category: number;
  client_swapped: number;
  data: bigint | null;
  /** In 4-byte units. */
  data_len: number | bigint;
}

export const XRecordInterceptProto = koffi.proto('void PlatynXRecordInterceptProc(void *closure, void *data)');

export interface XRecord {
  XRecordQueryVersion(display: Display, major: [number], minor: [number]): number;
  XRecordAllocRange(): bigint | null;
  /** `clients` and `ranges` are arrays of C `unsigned long` client specs and of XRecordRange pointers. */
  XRecordCreateContext(
    display: Display,
    datumFlags: number,
    clients: BigUint64Array,
    clientCount: number,
    ranges: BigUint64Array,
    rangeCount: number,
  ): number;
  XRecordEnableContextAsync(display: Display, context: number, callback: unknown, closure: null): number;
  XRecordProcessReplies(display: Display): void;
  XRecordDisableContext(display: Display, context: number): number;
  XRecordFreeContext(display: Display, context: number): number;
  XRecordFreeData(data: bigint): void;
}

let cached: XRecord | undefined;

export function loadXRecord(): XRecord {
  if (cached) return cached;
  const lib = loadLibrary('libXtst.so.6', 'libxtst6', 'recording input (RECORD)');
  const f = <T>(prototype: string) => declare<T>(lib, prototype);
  cached = {
    XRecordQueryVersion: f('int XRecordQueryVersion(void *display, _Out_ int *major, _Out_ int *minor)'),
    XRecordAllocRange: f('void *XRecordAllocRange()'),
    XRecordCreateContext: f(
      'unsigned long XRecordCreateContext(void *display, int datumFlags, uint64_t *clients, int clientCount, ' +
        'uint64_t *ranges, int rangeCount)',
    ),
    XRecordEnableContextAsync: f(
      'int XRecordEnableContextAsync(void *display, unsigned long context, PlatynXRecordInterceptProc *callback, void *closure)',
    ),
    XRecordProcessReplies: f('void XRecordProcessReplies(void *display)'),
    XRecordDisableContext: f('int XRecordDisableContext(void *display, unsigned long context)'),
    XRecordFreeContext: f('int XRecordFreeContext(void *display, unsigned long context)'),
    XRecordFreeData: f('void XRecordFreeData(void *data)'),
  };
  return cached;
}
