/**
 * One load measurement with autocannon from this (the harness) process: a warm-up run whose
 * figures are dropped, then the measured run with fixed connections and duration, sampling the
 * server's resident memory meanwhile. Requests rotate through the given paths and bodies.
 */
import autocannon from 'autocannon';
import { residentBytes } from './processes';

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

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

export async function measure(spec: LoadSpec): Promise<LoadResult> {
  if (spec.warmupSeconds > 0) await fire(spec, spec.warmupSeconds);
  let peak = 0;
  const sampler = spec.pid === undefined ? null : setInterval(() => (peak = Math.max(peak, residentBytes(spec.pid!))), 250);
  try {
    const { result, latencies } = await fire(spec, spec.seconds);
    const sorted = latencies.sort((a, b) => a - b);
    return {
      requestsPerSecond: result.requests.total / spec.seconds,
      p50: percentile(sorted, 0.5),
      p95: percentile(sorted, 0.95),
      p99: percentile(sorted, 0.99),
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      requests: result.requests.total,
      peakRssBytes: spec.pid === undefined ? null : peak,
    };
  } finally {
    if (sampler) clearInterval(sampler);
  }
}
