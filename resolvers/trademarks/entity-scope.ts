/**
 * The `entity_id` and `entity_group` trademark filters, with the spec's caps: an entity (or a
 * group) with more than 10,000 member owners, or a corporate-family walk past its node or depth
 * bound, is refused with 422 entity_too_large and a `reason`.
 */
import type { SearchFilter } from '../../datasources/ports';
import { FAMILY_DEPTH_LIMIT, MEMBER_OWNER_LIMIT, RELATED_ENTITY_LIMIT } from '../../domain/contract';
import { ApiError } from '../../domain/errors';
import type { EntityDoc } from '../../domain/records';
import type { RequestContext } from '../context';
import { loadPresent } from '../loaders';
import { loadEntity } from '../parties/lookup';
import type { TrademarkFilterInput } from './filter';

export function assertMemberCount(memberCount: number, what: string): void {
  if (memberCount > MEMBER_OWNER_LIMIT) {
    throw new ApiError('entity_too_large', `${what} has ${memberCount} member owners, more than ${MEMBER_OWNER_LIMIT}`, {
      reason: 'member_owners_too_large',
      member_count: memberCount,
      member_count_limit: MEMBER_OWNER_LIMIT,
    });
  }
}

function familyTooLarge(detail: string): ApiError {
  return new ApiError('entity_too_large', detail, {
    reason: 'family_graph_too_large',
    related_entity_limit: RELATED_ENTITY_LIMIT,
    depth_limit: FAMILY_DEPTH_LIMIT,
  });
}

/**
 * The entities of one entity's corporate family: breadth-first over owner relationships (parent
 * and child), each found entity's members joining the walk. One store round trip per level.
 */
async function familyEntities(start: EntityDoc, ctx: RequestContext): Promise<EntityDoc[]> {
  const entities = new Map<string, EntityDoc>([[start._id, start]]);
  const visited = new Set<string>(start.member_owner_ids);
  let frontier = [...start.member_owner_ids];
  for (let depth = 0; frontier.length > 0; depth++) {
    const owners = await loadPresent(ctx.loaders.owners, frontier);
    const newEntityIds = [...new Set(owners.map((o) => o.entity_id))].filter((id) => !entities.has(id));
    if (entities.size + newEntityIds.length > RELATED_ENTITY_LIMIT)
      throw familyTooLarge(`the corporate family of ${start._id} spans more than ${RELATED_ENTITY_LIMIT} entities`);
    for (const entity of await loadPresent(ctx.loaders.entities, newEntityIds)) entities.set(entity._id, entity);
    const next = [
      ...owners.flatMap((o) => o.relationships.map((r) => r.related_owner_id)),
      ...newEntityIds.flatMap((id) => entities.get(id)?.member_owner_ids ?? []),
    ].filter((id) => !visited.has(id));
    next.forEach((id) => visited.add(id));
    frontier = [...new Set(next)];
    if (frontier.length > 0 && depth + 1 >= FAMILY_DEPTH_LIMIT)
      throw familyTooLarge(`the corporate family of ${start._id} is deeper than ${FAMILY_DEPTH_LIMIT} levels`);
  }
  return [...entities.values()];
}

/** Index filters for `entity_id` / `entity_group`, after checking the caps. */
export async function entityScopeFilters(filter: TrademarkFilterInput, ctx: RequestContext): Promise<SearchFilter[]> {
  const filters: SearchFilter[] = [];
  if (filter.entity_id) {
    const entity = await loadEntity(filter.entity_id, ctx, 'entity_id');
    assertMemberCount(entity.member_owner_ids.length, `entity ${entity._id}`);
    filters.push({ field: 'entity_ids', op: 'eq', value: entity._id });
  }
  if (filter.entity_group) {
    const entity = await loadEntity(filter.entity_group, ctx, 'entity_group');
    assertMemberCount(entity.member_owner_ids.length, `entity ${entity._id}`);
    const group = await familyEntities(entity, ctx);
    assertMemberCount(
      group.reduce((sum, e) => sum + e.member_owner_ids.length, 0),
      `the corporate family of ${entity._id}`,
    );
    filters.push({ field: 'entity_ids', op: 'in', values: group.map((e) => e._id) });
  }
  return filters;
}
