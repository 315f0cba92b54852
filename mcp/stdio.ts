/**
 * `marque mcp`: the same tools over the stdio transport, for an agent that starts the server as a
 * local process. It acts with one API key (MARQUE_API_KEY), authenticated on every call as the
 * HTTP endpoint authenticates each request, so a revoked key stops working at once.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { FastifyInstance } from 'fastify';
import type { DocumentStore } from '../datasources/ports';
import { authenticate } from '../rest/auth';
import type { InternalCalls } from '../rest/internal-calls';
import { routeCaller } from './endpoint';
import { createMcpServer } from './server';
import type { ToolDefinition } from './tools';

export interface StdioOptions {
  app: FastifyInstance;
  store: DocumentStore;
  tools: readonly ToolDefinition[];
  /** The tools of the toolsets the agent asked for (mcp/toolsets.ts). */
  listed: readonly ToolDefinition[];
  internalCalls: InternalCalls;
  apiKey: string;
  version: string;
  now: () => Date;
}

/** Serves MCP on stdin/stdout until the agent closes the pipe; resolves when it does. */
export async function serveStdio(options: StdioOptions): Promise<void> {
  const who = () => authenticate(options.store, `Bearer ${options.apiKey}`, options.now());
  // Refuse a bad key before the agent's first request, with the reason on stderr.
  await who();
  const server = createMcpServer({
    tools: options.tools,
    listed: options.listed,
    callRoute: routeCaller(options.app, options.internalCalls, who),
    version: options.version,
  });
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new StdioServerTransport());
  await closed;
}
