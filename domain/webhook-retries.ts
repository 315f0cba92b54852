/**
 * When a webhook delivery is tried again, and when an endpoint that keeps failing is disabled
 * (spec: Events, rules 3 and 4; the numbers are this service's, documented in the OpenAPI
 * document and the README).
 *
 * Schedule: 8 attempts over about 27 hours, the common Standard Webhooks schedule: at once, then
 * after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. Each delay is jittered by up to ±20 % so
 * that receivers coming back from an outage are not hit by every retry in the same second; the
 * first retry therefore comes 4 to 6 s after the first attempt.
 *
 * Disabling: an endpoint is disabled when at least 8 attempts in a row have failed AND the first
 * of them is at least 24 hours old, i.e. it has been failing for a day without one success. A
 * short outage that fails many events at once never disables an endpoint; one event that
 * exhausts all its attempts (27 hours) does.
 */

/** Delays before attempts 2..8, in seconds. */
const RETRY_DELAYS_SECONDS: readonly number[] = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
const RETRY_JITTER = 0.2;

const DISABLE_AFTER_CONSECUTIVE_FAILURES = 8;
const DISABLE_AFTER_FAILING_HOURS = 24;

/**
 * When attempt `attempt + 1` is due after attempt `attempt` (1-based) failed at `failedAt`; null
 * when `attempt` was the last. `random` is a number in [0, 1) (Math.random in production).
 */
export function nextAttemptAt(attempt: number, failedAt: Date, random: number): Date | null {
  const delay = RETRY_DELAYS_SECONDS[attempt - 1];
  if (delay === undefined) return null;
  const jittered = delay * (1 + RETRY_JITTER * (2 * random - 1));
  return new Date(failedAt.getTime() + Math.round(jittered * 1000));
}

/** Whether an endpoint failing since `failingSince`, `consecutiveFailures` times in a row, is to be disabled at `now`. */
export function shouldDisableEndpoint(consecutiveFailures: number, failingSince: Date, now: Date): boolean {
  return consecutiveFailures >= DISABLE_AFTER_CONSECUTIVE_FAILURES && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_HOURS * 3600 * 1000;
}

/** The schedule in words, for the OpenAPI document and the README. */
export const RETRY_POLICY_TEXT =
  `Up to ${MAX_ATTEMPTS} attempts: at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (each delay ±${RETRY_JITTER * 100} % jitter; about 27 hours in all). ` +
  'A 2xx answer is success; a timeout, a connection error, a 3xx (redirects are not followed) or any other status is a failure; after the last failed attempt the delivery is exhausted. ' +
  `An endpoint is disabled (event webhook_endpoint.disabled) once ${DISABLE_AFTER_CONSECUTIVE_FAILURES} or more attempts in a row have failed over at least ${DISABLE_AFTER_FAILING_HOURS} hours without a success; PATCH status active re-enables it and resets consecutive_failures to 0.`;
