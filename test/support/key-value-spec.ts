/**
 * How to open a KeyValue, as data: the contract suite opens its store from it, and hands it to
 * child processes (test/support/key-value-hammer.ts) so they open the same file or Redis keys.
 */
import { createEmbeddedKeyValue } from '../../datasources/embedded/key-value';
import type { KeyValue } from '../../datasources/ports';
import { createRedisKeyValue } from '../../datasources/redis/key-value';

export type KeyValueSpec = { adapter: 'embedded'; path: string } | { adapter: 'redis'; url: string; keyPrefix: string };

export async function openKeyValue(spec: KeyValueSpec): Promise<KeyValue> {
  switch (spec.adapter) {
    case 'embedded':
      return createEmbeddedKeyValue({ path: spec.path });
    case 'redis':
      return createRedisKeyValue({ url: spec.url, keyPrefix: spec.keyPrefix });
  }
}
