/**
 * A throwaway Redis for tests: REDIS_URL when set, otherwise a `redis-server` from PATH on a free
 * loopback port with persistence off. Null when neither is available, so suites can say they did
 * not run instead of failing on machines without Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface TestRedisServer {
  url: string;
  /** Shuts the server down (no-op for an external REDIS_URL). */
  stop(): Promise<void>;
  /** Kills the server abruptly (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and waits until it answers. */
  restart(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open but nothing is answered. */
  pause(): Promise<void>;
  /** Thaws a paused process (SIGCONT). */
  resume(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 5_000;

function redisServerBinary(): string | null {
  for (const directory of (process.env.PATH ?? '').split(path.delimiter)) {
    if (directory === '') continue;
    const candidate = path.join(directory, 'redis-server');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not determine a free port'));
      });
    });
  });
}

/** One raw `PING` over TCP: true when the server answers `+PONG`. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let reply = '';
    const finish = (answered: boolean): void => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(500, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG'));
    });
  });
}

async function waitUntilAnswering(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (await answersPing(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within ${STARTUP_TIMEOUT_MS} ms`);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Whether spawnRedisServer can work: a `redis-server` binary is on PATH. */
export function canSpawnRedisServer(): boolean {
  return redisServerBinary() !== null;
}

/** Whether startRedisServer will return a server (REDIS_URL set, or a binary to spawn). */
export function canStartRedisServer(): boolean {
  return externalRedisUrl() !== null || canSpawnRedisServer();
}

function externalRedisUrl(): string | null {
  const url = process.env.REDIS_URL;
  return url === undefined || url === '' ? null : url;
}

/** Always spawns a local server (ignores REDIS_URL); null when no binary is on PATH. */
export async function spawnRedisServer(): Promise<TestRedisServer | null> {
  const binary = redisServerBinary();
  if (binary === null) return null;
  const port = await freeLoopbackPort();
  let child: ChildProcess | null = null;
  const killOnExit = (): void => {
    child?.kill('SIGKILL');
  };
  process.once('exit', killOnExit);

  const start = async (): Promise<void> => {
    const started = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child = started;
    await waitUntilAnswering(port, started);
  };
  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    const running = child;
    if (running === null) return;
    child = null;
    running.kill(signal);
    await exited(running);
  };

  const signal = async (name: NodeJS.Signals): Promise<void> => {
    if (child === null) throw new Error('redis-server is not running');
    child.kill(name);
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      await halt('SIGTERM');
      process.removeListener('exit', killOnExit);
    },
    kill: () => halt('SIGKILL'),
    restart: async () => {
      await halt('SIGKILL');
      await start();
    },
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
  };
}

/** REDIS_URL when set (kill, restart, pause and resume then reject), else a spawned server, else null. */
export async function startRedisServer(): Promise<TestRedisServer | null> {
  const external = externalRedisUrl();
  if (external === null) return spawnRedisServer();
  const uncontrollable = async (): Promise<void> => {
    throw new Error('an external REDIS_URL server cannot be killed or restarted by tests');
  };
  return {
    url: external,
    stop: async () => undefined,
    kill: uncontrollable,
    restart: uncontrollable,
    pause: uncontrollable,
    resume: uncontrollable,
  };
}
