/**
 * Requests the service makes to its own routes on a caller's behalf (MCP tool calls go through
 * the route they name, by `app.inject`), carrying a caller it has already authenticated: an API
 * key's or an OAuth token's. The request names its caller by a one-time random ticket in
 * INTERNAL_CALL_HEADER; a ticket is taken once and never leaves the process, so a client sending
 * the header gains nothing (an unknown ticket is refused like a bad key).
 */
import { randomBytes } from 'node:crypto';
import type { Tier } from '../domain/plans';
import type { Authenticated } from './auth';

export const INTERNAL_CALL_HEADER = 'x-marque-internal-call';

export interface InternalCall extends Authenticated {
  /** The transport tier whose ceiling the call spends (spec: Limits; MCP calls spend `mcp`). */
  tier: Tier;
}

export class InternalCalls {
  private readonly pending = new Map<string, InternalCall>();

  /** A ticket for one request on behalf of `call`. */
  issue(call: InternalCall): string {
    const ticket = randomBytes(24).toString('base64url');
    this.pending.set(ticket, call);
    return ticket;
  }

  /** The call a ticket stands for, once: undefined without the header, null for a ticket not (or no longer) issued. */
  take(header: string | string[] | undefined): InternalCall | null | undefined {
    if (header === undefined) return undefined;
    const ticket = Array.isArray(header) ? header[0] : header;
    const call = ticket === undefined ? undefined : this.pending.get(ticket);
    if (ticket === undefined || call === undefined) return null;
    this.pending.delete(ticket);
    return call;
  }

  /** Forgets a ticket whose request was never made. */
  discard(ticket: string): void {
    this.pending.delete(ticket);
  }
}
