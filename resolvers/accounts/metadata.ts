/**
 * Metadata maps of customer objects (API keys, feedback): string keys to string values, at most
 * 50 keys. Checked here rather than only by the REST parameter parser, because GraphQL callers
 * pass the same maps as free JSON objects.
 */
import { invalid } from '../../domain/errors';

export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_KEY_LENGTH = 255;
export const METADATA_MAX_VALUE_LENGTH = 500;

export const METADATA_RULE = `at most ${METADATA_MAX_KEYS} keys of 1 to ${METADATA_MAX_KEY_LENGTH} characters, string values up to ${METADATA_MAX_VALUE_LENGTH} characters`;

function checkEntry(name: string, key: string, value: unknown, allowNull: boolean): void {
  if (key.length === 0 || key.length > METADATA_MAX_KEY_LENGTH) throw invalid(name, `keys must be 1 to ${METADATA_MAX_KEY_LENGTH} characters`);
  if (value === null && allowNull) return;
  if (typeof value !== 'string') throw invalid(`${name}.${key}`, allowNull ? 'must be a string or null' : 'must be a string');
  if (value.length > METADATA_MAX_VALUE_LENGTH) throw invalid(`${name}.${key}`, `must be at most ${METADATA_MAX_VALUE_LENGTH} characters`);
}

function entriesOf(name: string, value: unknown): Array<[string, unknown]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(name, 'must be a JSON object of string values');
  return Object.entries(value as Record<string, unknown>);
}

function checkCount(name: string, count: number): void {
  if (count > METADATA_MAX_KEYS) throw invalid(name, `must have at most ${METADATA_MAX_KEYS} keys (got ${count})`);
}

/** A complete metadata map (creation). */
export function parseMetadata(name: string, value: unknown): Record<string, string> {
  const entries = entriesOf(name, value);
  checkCount(name, entries.length);
  for (const [key, item] of entries) checkEntry(name, key, item, false);
  return Object.fromEntries(entries) as Record<string, string>;
}

/**
 * Applies a JSON merge patch (RFC 7396, one level): a string sets a key, null removes it. The
 * result must still respect the key limit.
 */
export function mergeMetadata(name: string, current: Readonly<Record<string, string>>, patch: unknown): Record<string, string> {
  const entries = entriesOf(name, patch);
  for (const [key, item] of entries) checkEntry(name, key, item, true);
  const merged = new Map(Object.entries(current));
  for (const [key, item] of entries) {
    if (item === null) merged.delete(key);
    else merged.set(key, item as string);
  }
  checkCount(name, merged.size);
  return Object.fromEntries(merged);
}
