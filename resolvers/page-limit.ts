/**
 * The page size rule every list shares: `limit` or the default, an integer from 1 to the list's
 * maximum; anything else is a 400 naming `limit`.
 */
import { invalid } from '../domain/errors';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export function pageLimit(limit: number | null | undefined, max: number = MAX_PAGE_SIZE, fallback: number = DEFAULT_PAGE_SIZE): number {
  const value = limit ?? fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) throw invalid('limit', `must be an integer from 1 to ${max}`);
  return value;
}
