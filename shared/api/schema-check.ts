import type { MessageCheck } from './client.js';
import { parseResult, parseServerMessage } from './schema.js';

/** The protocol client's check of what a host sends, against the schema (loads zod). */
export const schemaCheck: MessageCheck = { parseServerMessage, parseResult };
