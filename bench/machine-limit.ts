/**
 * The machine's limit: a bare Node http server answering every request with one fixed byte string
 * (BENCH_BODY_FILE: a real detail response, so the size matches).
 *
 *   BENCH_BODY_FILE=… PORT=… node -r ts-node/register/transpile-only bench/machine-limit.ts
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.env.BENCH_BODY_FILE ?? '');
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
