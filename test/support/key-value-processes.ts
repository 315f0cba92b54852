/**
 * Runs several key-value-hammer processes against one store at once: each is started, waits
 * until all have opened the store, then all are told to go; resolves with their reports in order.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { HammerOrder, HammerReport } from './key-value-hammer';

const HAMMER = path.join(__dirname, 'key-value-hammer.ts');
const ROOT = path.join(__dirname, '..', '..');

interface Hammer {
  ready: Promise<void>;
  report: Promise<HammerReport>;
  go(): void;
}

function startHammer(order: HammerOrder): Hammer {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', HAMMER, JSON.stringify(order)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A process that already died cannot take `go`; its exit is reported below, not as EPIPE.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const failure = (): Error => new Error(`key-value hammer (${order.fingerprint}) failed: ${stderr || stdout}`);
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.startsWith('ready\n')) resolve();
    });
    void exited.then(() => reject(failure()));
  });
  const report = exited.then((code) => {
    const last = stdout.trim().split('\n').at(-1);
    if (code !== 0 || last === undefined || last === 'ready') throw failure();
    return JSON.parse(last) as HammerReport;
  });
  return { ready, report, go: () => child.stdin.end('go\n') };
}

export async function runHammers(orders: readonly HammerOrder[]): Promise<HammerReport[]> {
  const hammers = orders.map(startHammer);
  // All are released even when one failed to start, so every process exits.
  await Promise.allSettled(hammers.map((hammer) => hammer.ready));
  for (const hammer of hammers) hammer.go();
  return Promise.all(hammers.map((hammer) => hammer.report));
}
