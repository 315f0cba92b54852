// TEMPORARY STUB (not committed)
import type { RequestContext } from '../context';
export async function assertResourceQuota(_ctx: RequestContext, _what: 'watches', _adding: number): Promise<void> {}
