/**
 * The real `marque` command for the tests that need it: a `marque serve` process (signals, the
 * demo), started with the given environment and log level info, its address read from the serving
 * line; and one-shot commands on a data directory.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const MARQUE = join(__dirname, '..', '..', 'bin', 'marque.js');

export interface ServeProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Resolves with the exit code (null when a signal ended it). */
  exit: Promise<number | null>;
  /** Everything it has written to stderr so far. */
  stderr(): string;
  /** Everything it has written to stdout so far. */
  stdout(): string;
}

export async function startServe(env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = spawn(process.execPath, [MARQUE, 'serve'], {
    env: { ...process.env, PORT: '0', ...env, MARQUE_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /serving (http:\/\/[^\s]+)\/v1/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`marque serve exited: ${stderr}`)));
  });
  return { child, baseUrl, exit, stderr: () => stderr, stdout: () => stdout };
}

const execMarque = promisify(execFile);

/** Runs one `marque` command on a data directory (logging silenced) and returns what it printed; rejects on a non-zero exit. */
export function runMarque(dataDir: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return execMarque(process.execPath, [MARQUE, ...args], { env: { ...process.env, MARQUE_DATA_DIR: dataDir, MARQUE_LOG_LEVEL: 'silent' }, timeout: 120_000 });
}
