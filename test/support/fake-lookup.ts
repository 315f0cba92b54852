/**
 * A stand-in for `dns.lookup` in the outbound-client tests: it gives the n-th answer (addresses,
 * or a resolver error) to the n-th question and the last answer thereafter, honouring `all` as
 * dns.lookup does, and records the names and options it was asked with.
 */
import type { LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

export type LookupAnswer = readonly string[] | NodeJS.ErrnoException;

export function scriptedLookup(answers: readonly LookupAnswer[], log: { names?: string[]; options?: LookupOptions[] } = {}): LookupFunction {
  let asked = 0;
  return (hostname, options, callback) => {
    const answer = answers[Math.min(asked, answers.length - 1)];
    asked += 1;
    log.names?.push(hostname);
    log.options?.push(options);
    setImmediate(() => {
      if (answer === undefined || !Array.isArray(answer)) return callback((answer as NodeJS.ErrnoException | undefined) ?? new Error('no answer scripted'), '');
      const addresses = answer.map((address) => ({ address, family: isIP(address) }));
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      return first ? callback(null, first.address, first.family) : callback(null, []);
    });
  };
}
