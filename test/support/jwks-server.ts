/**
 * A stand-in OAuth authorization server for tests: its key set at /api/auth/jwks on a real
 * loopback port (what the access-token verifier fetches), and ES256 signing keys for tokens.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function signingKey(kid: string): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

/** The authorization server's key set endpoint; `published` can change under it (rotation). */
export class JwksServer {
  published: JWK[] = [];
  fetches = 0;
  status = 200;
  private readonly server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/api/auth/jwks') {
      response.writeHead(404).end();
      return;
    }
    this.fetches += 1;
    response.writeHead(this.status, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: this.published }));
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
  }
}
