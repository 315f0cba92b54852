/**
 * Child processes of the benchmark: each server runs in its own Node process (the load comes from
 * the harness process), is started with TypeScript transpiled on load, and is stopped by its id.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { HTTP_NODE_OPTIONS } from '../bin/config';

export const PROJECT_ROOT = join(__dirname, '..');

export interface Child {
  name: string;
  process: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** A port free at the moment of asking (the child binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Runs a TypeScript entry (or `-e` code) with ts-node's transpile-only hook. */
export function nodeArgs(entry: string[], extraNodeArgs: readonly string[] = []): string[] {
  return [...extraNodeArgs, '-r', 'ts-node/register/transpile-only', ...entry];
}

async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with code ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export async function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, probeUrl: string, baseUrl: string): Promise<Child> {
  const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitUntilAnswering(probeUrl, child, 120_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { name, process: child, url: baseUrl, stop };
}

function ownResidentBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0; // it exited between the listing and the read
  }
}

/** Resident set size in bytes of a process and its children (a cluster's workers), from Linux /proc. */
export function residentBytes(pid: number): number {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    children = [];
  }
  return ownResidentBytes(pid) + children.reduce((sum, child) => sum + ownResidentBytes(child), 0);
}

export interface ServeOptions {
  /** HTTP processes (MARQUE_WORKERS; default 1: the bench names what it compares). */
  workers?: number;
  /** Write a CPU profile of every process to .tmp/bench-prof/. */
  profile?: boolean;
}

/**
 * A real `marque serve` (from the sources, through ts-node) on `dataDir`, on a free loopback port,
 * silent, without a demo, and without the change-feed workers: nothing writes the feed during a
 * bench, and two servers on one data directory need not both follow it.
 */
export async function startMarqueServe(dataDir: string, options: ServeOptions = {}): Promise<Child> {
  const workers = options.workers ?? 1;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profileArgs = options.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(PROJECT_ROOT, '.tmp', 'bench-prof')}`] : [];
  const env = {
    MARQUE_DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    MARQUE_DEMO_MARKS: '0',
    MARQUE_LOG_LEVEL: 'silent',
    MARQUE_WORKERS: String(workers),
    MARQUE_FEED_WORKERS: 'none',
  };
  return startChild(
    `marque serve --workers ${workers}`,
    // As `npm start` starts it.
    nodeArgs(['-e', "require('./bin/cli.ts').main(['serve'])"], [...HTTP_NODE_OPTIONS, ...profileArgs]),
    env,
    `${base}/health/live`,
    base,
  );
}
