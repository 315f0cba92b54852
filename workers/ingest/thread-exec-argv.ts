/**
 * The Node options to start an ingestion thread with. Compiled, none given: a thread inherits
 * the process's options, and may not be given V8's explicitly (`--max-semi-space-size`, which
 * `npm start` passes, fails with ERR_WORKER_INVALID_EXEC_ARGV). From the sources, the process's
 * module hooks (`-r`) and ts-node's, since a thread given any options inherits none.
 */
import { extname } from 'node:path';

export function threadExecArgv(threadFile: string, execArgv: readonly string[] = process.execArgv): string[] | undefined {
  if (extname(threadFile) !== '.ts') return undefined;
  const hooks: string[] = [];
  for (let i = 0; i < execArgv.length; i += 1) {
    const arg = execArgv[i] as string;
    const value = execArgv[i + 1];
    if ((arg === '-r' || arg === '--require') && value !== undefined) {
      hooks.push(arg, value);
      i += 1;
    } else if (arg.startsWith('--require=')) hooks.push(arg);
  }
  return [...hooks, '-r', 'ts-node/register/transpile-only'];
}
