/**
 * The one error model, from provider to renderer: an InspectorError has a code, a message a person understands and,
 * where it applies, the XPath position, the node (runtimeId) or the place in a request (path). The API sends
 * `toData()` and the client rebuilds the same InspectorError with `fromData()`.
 */

/** Every error code; the API schema's enum is made from this list. */
export const ERROR_CODES = [
  'usage',
  'xpath-syntax',
  'xpath-type',
  'xpath-evaluation',
  'provider-unavailable',
  'accessibility-disabled',
  'timeout',
  'cancelled',
  /** The node changed or went away since it was read (every front end uses this code for it). */
  'stale-node',
  'not-responding',
  'unsupported',
  'action-failed',
  'invalid-input',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface SourcePosition {
  line: number;
  column: number;
  offset: number;
}

export interface InspectorErrorDetails {
  /** Where in the XPath expression (xpath-* codes). */
  position?: SourcePosition;
  /** The node the error is about. */
  runtimeId?: string;
  /** Where in a request the problem is (`params.limit`), for invalid-input. */
  path?: string;
}

export interface InspectorErrorData extends InspectorErrorDetails {
  code: ErrorCode;
  message: string;
}

export class InspectorError extends Error {
  readonly code: ErrorCode;
  readonly position: SourcePosition | undefined;
  readonly runtimeId: string | undefined;
  readonly path: string | undefined;

  constructor(code: ErrorCode, message: string, details: InspectorErrorDetails = {}) {
    super(message);
    this.name = 'InspectorError';
    this.code = code;
    this.position = details.position;
    this.runtimeId = details.runtimeId;
    this.path = details.path;
  }

  toData(): InspectorErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.position ? { position: this.position } : {}),
      ...(this.runtimeId ? { runtimeId: this.runtimeId } : {}),
      ...(this.path ? { path: this.path } : {}),
    };
  }

  static fromData(data: InspectorErrorData): InspectorError {
    const details: InspectorErrorDetails = {};
    if (data.position) details.position = data.position;
    if (data.runtimeId) details.runtimeId = data.runtimeId;
    if (data.path) details.path = data.path;
    return new InspectorError(data.code, data.message, details);
  }
}

export function isInspectorError(error: unknown): error is InspectorError {
  return error instanceof InspectorError;
}

export function toInspectorError(error: unknown): InspectorError {
  if (error instanceof InspectorError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new InspectorError('internal', message);
}

/** Line and column (both 1-based) of an offset into a text. */
export function positionAt(text: string, offset: number): SourcePosition {
  const clamped = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < clamped; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: clamped - lineStart + 1, offset: clamped };
}
