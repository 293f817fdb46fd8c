/** Errors are values with a code, a message a person understands and, where it applies, a position or node. */

export type ErrorCode =
  | 'usage'
  | 'xpath-syntax'
  | 'xpath-type'
  | 'xpath-evaluation'
  | 'provider-unavailable'
  | 'accessibility-disabled'
  | 'timeout'
  | 'cancelled'
  | 'stale-node'
  | 'not-responding'
  | 'unsupported'
  | 'action-failed'
  | 'invalid-input'
  /** A configured limit stopped the work (the XPath worker's memory, say); the message names the limit. */
  | 'limit-exceeded'
  | 'internal';

export interface SourcePosition {
  line: number;
  column: number;
  offset: number;
}

export interface InspectorErrorData {
  code: ErrorCode;
  message: string;
  position?: SourcePosition;
  runtimeId?: string;
}

export class InspectorError extends Error {
  readonly code: ErrorCode;
  readonly position: SourcePosition | undefined;
  readonly runtimeId: string | undefined;

  constructor(code: ErrorCode, message: string, details: { position?: SourcePosition; runtimeId?: string } = {}) {
    super(message);
    this.name = 'InspectorError';
    this.code = code;
    this.position = details.position;
    this.runtimeId = details.runtimeId;
  }

  toData(): InspectorErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.position ? { position: this.position } : {}),
      ...(this.runtimeId ? { runtimeId: this.runtimeId } : {}),
    };
  }

  static fromData(data: InspectorErrorData): InspectorError {
    const details: { position?: SourcePosition; runtimeId?: string } = {};
    if (data.position) details.position = data.position;
    if (data.runtimeId) details.runtimeId = data.runtimeId;
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
