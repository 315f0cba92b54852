/**
 * Every index projection the indexer maintains, in the order they are applied.
 */
import { attorneyProjection } from './attorneys';
import { entityProjection } from './entities';
import { firmProjection } from './firms';
import { ownerProjection } from './owners';
import { proceedingProjection } from './proceedings';
import type { IndexProjection } from './projection';
import { trademarkProjection } from './trademarks';

export const PROJECTIONS: readonly IndexProjection[] = [
  trademarkProjection,
  proceedingProjection,
  // Parties count from the trademark index; firms also from the attorney index, so they come last.
  ownerProjection,
  attorneyProjection,
  entityProjection,
  firmProjection,
];
