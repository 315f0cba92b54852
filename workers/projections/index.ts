/**
 * Every index projection the indexer maintains, in the order they are applied.
 */
import type { IndexProjection } from './projection';
import { trademarkProjection } from './trademarks';

export const PROJECTIONS: readonly IndexProjection[] = [trademarkProjection];
