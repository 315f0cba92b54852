/**
 * What the pages Marque serves beside the API (/docs, /dashboard) share: answering a file with
 * its ETag and cache policy (304 when unchanged), and a Content-Security-Policy that keeps the
 * page to this origin, so it works offline and nothing it loads reaches elsewhere.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface StaticFile {
  body: Buffer | string;
  contentType: string;
  /** A strong validator, quoted. */
  etag: string;
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/"x" matches "x"; * matches any. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

export function sendStaticFile(request: FastifyRequest, reply: FastifyReply, file: StaticFile, cacheControl: string): FastifyReply {
  reply.header('cache-control', cacheControl).header('etag', file.etag).header('x-content-type-options', 'nosniff');
  if (ifNoneMatchHits(request.headers['if-none-match'], file.etag)) return reply.status(304).send();
  return reply.status(200).type(file.contentType).send(file.body);
}

/**
 * Only this origin. 'unsafe-inline' for styles only (the front ends set style attributes);
 * data: images and fonts are those inlined in their stylesheets.
 */
export const SAME_ORIGIN_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
