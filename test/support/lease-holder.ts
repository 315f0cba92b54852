/**
 * A process that takes a lease with `inTurn` on a key-value file and works until it is stopped
 * (MARQUE_TEST_KV_PATH, MARQUE_TEST_LEASE_KEY); it tells its parent `holding` once its work runs.
 */
import { createEmbeddedKeyValue } from '../../datasources/embedded/key-value';
import { inTurn } from '../../workers/worker-lease';

const kv = createEmbeddedKeyValue({ path: process.env.MARQUE_TEST_KV_PATH! });
void inTurn(
  kv,
  process.env.MARQUE_TEST_LEASE_KEY!,
  () => {
    process.send!('holding');
    return new Promise<void>(() => undefined);
  },
  { ttlMs: 60_000 },
);
