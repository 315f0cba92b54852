/**
 * Serializes explicit transactions on the store's single SQLite connection.
 *
 * better-sqlite3 runs statements synchronously, but `DocumentStore.transaction(work)` takes
 * async work, so the transaction stays open across awaits. While it is open, every other
 * operation on the same store (other requests, workers) would otherwise run inside it on the
 * shared connection: seeing its uncommitted rows and being rolled back with it. So the gate
 * makes operations from outside the transaction's async context (tracked by
 * AsyncLocalStorage) wait until it ends, and nested `transaction` calls join the open one.
 *
 * The AsyncLocalStorage is enabled only while a transaction is open. Enabled, it makes Node 20
 * run a hook at every promise the process creates, whoever creates it (a batch of 100 marks
 * creates thousands): a promise-heavy loop ran 1.8 times as long, and a batch request took about
 * 6 % more CPU. Disabling it after each transaction turns the hooks off again when no other
 * storage is enabled. A promise created while it is off carries no context, which is right: the
 * only context it tracks is "inside the open transaction", and none is open then.
 *
 * Limitation: nothing else on the store makes progress while a transaction awaits, so keep
 * transactions short and do no slow I/O inside them; and work must not wait on something (such
 * as a DataLoader batch started outside) that itself needs the store, or it deadlocks.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TransactionHooks {
  begin(): void;
  commit(): void;
  rollback(): void;
}

export class TransactionGate {
  private readonly context = new AsyncLocalStorage<true>();
  private open: Promise<void> | null = null;

  isInside(): boolean {
    return this.context.getStore() === true;
  }

  /** Resolves once no transaction begun outside the caller's context is open. */
  async waitOutside(): Promise<void> {
    while (this.open && !this.isInside()) await this.open;
  }

  async run<R>(work: () => Promise<R>, hooks: TransactionHooks): Promise<R> {
    if (this.isInside()) return work();
    while (this.open) await this.open;
    let release: () => void = () => undefined;
    this.open = new Promise((resolve) => (release = resolve));
    try {
      hooks.begin();
      let result: R;
      try {
        result = await this.context.run(true, work);
      } catch (error) {
        hooks.rollback();
        throw error;
      }
      hooks.commit();
      return result;
    } finally {
      this.open = null;
      this.context.disable();
      release();
    }
  }
}
