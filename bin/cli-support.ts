/**
 * What the command modules of the `marque` CLI share: usage errors (exit code 2), output (JSON on
 * stdout, messages and progress on stderr), option parsing helpers, opening the adapters and
 * stopping on signals.
 */
import { closeAdapters, openAdapters, type Adapters, type OpenOptions } from './adapters';
import type { Config } from './config';
import { createProgress, silentProgress, type Progress } from './progress';

/** A mistake in the command line: reported with the usage text, exit code 2. */
export class UsageError extends Error {}

export const err = (line: string) => process.stderr.write(`${line}\n`);
export const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

export function positiveInt(name: string, raw: string | undefined, fallback?: number): number {
  if (raw === undefined) {
    if (fallback === undefined) throw new UsageError(`--${name} is required`);
    return fallback;
  }
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a non-negative integer (got '${raw}')`);
  return Number(raw);
}

export function required(name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** Progress on stderr (bars on a terminal, plain lines otherwise); none with MARQUE_LOG_LEVEL=silent. */
export function progressFor(config: Config): Progress {
  return config.logLevel === 'silent' ? silentProgress : createProgress(process.stderr);
}

export async function withAdapters<T>(config: Config, work: (adapters: Adapters) => Promise<T>, options: OpenOptions = {}): Promise<T> {
  const adapters = await openAdapters(config, options);
  try {
    return await work(adapters);
  } finally {
    await closeAdapters(adapters);
  }
}

/**
 * SIGTERM or SIGINT stops gracefully with `stop`, then exits 0; a second signal during the stop
 * exits at once (128 + the signal's number), after `abort`, for an operator who will not wait.
 */
export function onStopSignals(log: (line: string) => void, stop: () => Promise<void>, abort: () => void = () => undefined): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      log(`marque: ${signal} again; exiting now`);
      abort();
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    }
    stopping = true;
    log(`marque: ${signal}; draining (send it again to exit at once)`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`marque: stop failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
