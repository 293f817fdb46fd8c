import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { projectRoot } from './paths.js';

/** `platynui-inspector mcp` started by the MCP SDK's own client over stdio, as an agent's host starts it. */
export interface McpClient {
  client: Client;
  /** Calls a tool; the result as the server sent it (errors are results with isError). */
  call(name: string, args?: { [key: string]: unknown }): Promise<CallToolResult>;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** Problems of the transport: a line on stdout that is not protocol lands here. */
  transportErrors: Error[];
  close(): Promise<void>;
}

export async function startMcpClient(
  args: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<McpClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(projectRoot(), 'bin', 'platynui-inspector'), 'mcp', ...args],
    env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const transportErrors: Error[] = [];
  transport.onerror = (error) => transportErrors.push(error);
  const client = new Client({ name: 'platynui-inspector-tests', version: '1.0.0' });
  await client.connect(transport);
  // connect() sets the transport's error handler to the client's: keep both.
  const clientOnError = transport.onerror;
  transport.onerror = (error) => {
    transportErrors.push(error);
    clientOnError?.(error);
  };
  return {
    client,
    call: async (name, callArgs = {}) => (await client.callTool({ name, arguments: callArgs })) as CallToolResult,
    stderr: () => stderr,
    transportErrors,
    close: () => client.close(),
  };
}

/** The text of a tool result (its text parts joined). */
export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}
