/**
 * A server in this process over an existing data directory, opened as `marque serve` opens it
 * (embedded adapters, its cursor secret), on an ephemeral port: for tests that prepare the
 * directory with the command line and then call the API.
 */
import type { AddressInfo } from 'node:net';
import { closeAdapters, cursorSecret, openAdapters, type Adapters } from '../../bin/adapters';
import { createServer, type Server, type ServerOptions } from '../../bin/compose';
import { readConfig } from '../../bin/config';

export interface DataDirServer {
  adapters: Adapters;
  server: Server;
  port: number;
  baseUrl: string;
  close(): Promise<void>;
}

export async function serveDataDir(dataDir: string, options: ServerOptions = {}): Promise<DataDirServer> {
  const config = readConfig({ MARQUE_DATA_DIR: dataDir, MARQUE_DEMO_MARKS: '0' });
  const adapters = await openAdapters(config);
  const server = await createServer(adapters, cursorSecret(config), { log: () => undefined, ...options });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (server.app.server.address() as AddressInfo).port;
  return {
    adapters,
    server,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      await server.close();
      await closeAdapters(adapters);
    },
  };
}
