// What the MCP server takes from the MCP SDK and zod, as one module. The build bundles this file with the packages
// behind it (scripts/build.mjs): the server then loads one file instead of about 240 modules, about 100 ms of the
// main thread instead of 270 while the applications' trees load (the answers the load waits for are taken in only
// between modules). tools.ts takes zod from here too: the schemas it hands the SDK come from the same zod.
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
export type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
export { z } from 'zod';
