import { InspectorError, toInspectorError, type ErrorCode } from '../../shared/model/errors.js';

/** The codes a tool answers with: the inspector's error codes and the refusals only agents get. */
export type AgentErrorCode = ErrorCode | 'rate-limited' | 'disabled' | 'secure-field';

/**
 * A refusal of the MCP layer itself. Its message names nodes by their short ids only, never by application text, so
 * it is shown as it is; errors from the runtime below (which quote names) are wrapped as untrusted.
 */
export class AgentError extends Error {
  constructor(
    readonly code: AgentErrorCode,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'AgentError';
  }
}

export interface AgentErrorData {
  code: AgentErrorCode;
  message: string;
  retryAfterMs?: number;
  /** Where in the arguments the problem is (`id`, `action.text`). */
  path?: string;
}

/** An error of any kind as a tool reports it; `trusted` when its message holds no application text. */
export function errorData(error: unknown): { data: AgentErrorData; trusted: boolean } {
  if (error instanceof AgentError) {
    return {
      data: {
        code: error.code,
        message: error.message,
        ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
      },
      trusted: true,
    };
  }
  const failure = error instanceof InspectorError ? error : toInspectorError(error);
  return {
    data: { code: failure.code, message: failure.message, ...(failure.path ? { path: failure.path } : {}) },
    trusted: false,
  };
}
