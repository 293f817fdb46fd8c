import type { ApiError } from '../../shared/api/schema.js';
import { InspectorError } from '../../shared/model/errors.js';

/** The host's error as the protocol carries it (code, message, position, path, runtimeId), whatever was thrown. */
export function errorOf(error: unknown): ApiError {
  if (error instanceof InspectorError) return error.toData();
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}
