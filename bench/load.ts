/**
 * One load measurement with autocannon from this (the harness) process: a warm-up run whose
 * figures are dropped, then the measured run with fixed connections and duration, sampling the
 * server's resident memory meanwhile. Requests rotate through the given paths and bodies.
 */
import autocannon from 'autocannon';
import { residentBytes } from './processes';
import { percentile } from './samples';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  /** Paths (with query) to rotate through. */
  paths: readonly string[];
  /** JSON bodies to rotate through (POST). */
  bodies?: readonly string[];
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** Process whose RSS to sample during the measured run. */
  pid?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
  peakRssBytes: number | null;
}

interface Fired {
  result: autocannon.Result;
  /** Every response's latency in milliseconds, for exact percentiles (autocannon has no p95). */
  latencies: number[];
}

function fire(spec: LoadSpec, seconds: number): Promise<Fired> {
  let next = 0;
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        duration: seconds,
        requests: [
          {
            method: spec.method,
            headers: { ...spec.headers, ...(spec.bodies ? { 'content-type': 'application/json' } : {}) },
            setupRequest: (request) => {
              const turn = next++;
              const path = spec.paths[turn % spec.paths.length]!;
              return spec.bodies ? { ...request, path, body: spec.bodies[turn % spec.bodies.length]! } : { ...request, path };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve({ result, latencies })),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

/** One measured run's raw figures, before they are summarized (possibly with other rounds). */
interface Round {
  seconds: number;
  requests: number;
  latencies: number[];
  errors: number;
  non2xx: number;
  peakRssBytes: number | null;
}

async function measuredRound(spec: LoadSpec): Promise<Round> {
  let peak = 0;
  const sampler = spec.pid === undefined ? null : setInterval(() => (peak = Math.max(peak, residentBytes(spec.pid!))), 250);
  try {
    const { result, latencies } = await fire(spec, spec.seconds);
    return {
      seconds: spec.seconds,
      requests: result.requests.total,
      latencies,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      peakRssBytes: spec.pid === undefined ? null : peak,
    };
  } finally {
    if (sampler) clearInterval(sampler);
  }
}

function summarize(rounds: readonly Round[]): LoadResult {
  const sorted = rounds.flatMap((round) => round.latencies).sort((a, b) => a - b);
  const requests = rounds.reduce((sum, round) => sum + round.requests, 0);
  const peaks = rounds.map((round) => round.peakRssBytes);
  return {
    requestsPerSecond: requests / rounds.reduce((sum, round) => sum + round.seconds, 0),
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    non2xx: rounds.reduce((sum, round) => sum + round.non2xx, 0),
    requests,
    peakRssBytes: peaks.every((peak) => peak === null) ? null : Math.max(...peaks.map((peak) => peak ?? 0)),
  };
}

export async function measure(spec: LoadSpec): Promise<LoadResult> {
  if (spec.warmupSeconds > 0) await fire(spec, spec.warmupSeconds);
  return summarize([await measuredRound(spec)]);
}

export interface AlternatingResult {
  /** Each spec's figures over all its rounds. */
  results: LoadResult[];
  /** Requests per second of each spec, per round (rounds[r][s]). */
  rounds: number[][];
}

/**
 * Measures several servers in turns (A, B, A, B, …), each warmed up once before its first turn,
 * so a change in the machine's load during the run (it is shared) weighs on all of them alike
 * instead of on whichever ran at the wrong moment.
 */
export async function measureAlternating(specs: readonly LoadSpec[], rounds: number): Promise<AlternatingResult> {
  for (const spec of specs) if (spec.warmupSeconds > 0) await fire(spec, spec.warmupSeconds);
  const measured: Round[][] = specs.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [index, spec] of specs.entries()) measured[index]!.push(await measuredRound(spec));
  }
  return {
    results: measured.map(summarize),
    rounds: Array.from({ length: rounds }, (_, round) => measured.map((spec) => spec[round]!.requests / spec[round]!.seconds)),
  };
}
