/**
 * What every resolver receives: the caller (organization and scopes), the request's DataLoaders,
 * and the long-lived services the composition root wired together.
 */
import type { DocumentStore, KeyValue, SearchIndex } from '../datasources/ports';
import type { CursorCodec } from './cursors';
import { createLoaders, type Loaders } from './loaders';

export interface Services {
  store: DocumentStore;
  search: SearchIndex;
  /** Limits, quotas and idempotency records (usage resolvers read the quota counters). */
  kv: KeyValue;
  cursors: CursorCodec;
  /** Injected clock, so tests can pin "today" (opposition windows, cursor ages). */
  now: () => Date;
  /** Time budget of one watch preview (MARQUE_PREVIEW_BUDGET_MS). */
  previewBudgetMs: number;
  /**
   * Checks a webhook URL before it is stored (scheme, and in production the address it resolves
   * to); throws the catalog's validation error naming `url`. Built by the composition root from
   * MARQUE_ENV.
   */
  checkWebhookUrl: (url: string) => Promise<void>;
}

export interface Caller {
  organizationId: string;
  apiKeyId: string | null;
  /** An OAuth access token's subject (the user acting through an MCP session); absent for API keys. */
  subject?: string;
  scopes: ReadonlySet<string>;
}

export interface RequestContext {
  caller: Caller;
  services: Services;
  loaders: Loaders;
}

export function createRequestContext(services: Services, caller: Caller): RequestContext {
  return { caller, services, loaders: createLoaders(services.store) };
}
