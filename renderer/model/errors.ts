import { ApiRequestError } from '../../shared/api/client.js';
import type { ApiError } from '../../shared/api/schema.js';

/** The host's error as the protocol carries it (code, message, position ...), whatever was thrown. */
export function errorOf(error: unknown): ApiError {
  if (error instanceof ApiRequestError) return error.error;
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}
