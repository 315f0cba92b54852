/**
 * Applies a parsed update to a document in memory, with MongoDB's rules for dotted paths:
 * missing intermediate objects are created, numeric segments index into arrays, `$inc` on a
 * missing field sets it, `$push` on a missing field creates the array. The embedded adapter
 * reads the document, applies the update here and writes it back inside one transaction.
 */
import { equalityFields, isPlainObject, upsertId } from './query-subset';
import type { FilterNode, ParsedUpdate } from './query-subset';

type Container = Record<string, unknown> | unknown[];

/** A new document with the update applied; `inserting` enables `$setOnInsert`. */
export function applyUpdate<T extends object>(document: T, update: ParsedUpdate, inserting: boolean): T {
  const result = structuredClone(document) as T & Record<string, unknown>;
  for (const [path, value] of update.set) writePath(result, path, structuredClone(value));
  if (inserting) for (const [path, value] of update.setOnInsert) writePath(result, path, structuredClone(value));
  for (const path of update.unset) unsetPath(result, path);
  for (const [path, amount] of update.inc) {
    const current = readPath(result, path);
    if (current !== undefined && typeof current !== 'number') {
      throw new Error(`Cannot apply $inc to the non-numeric field "${path.join('.')}".`);
    }
    writePath(result, path, (current ?? 0) + amount);
  }
  for (const [path, values] of update.push) {
    const current = readPath(result, path);
    if (current === undefined) writePath(result, path, structuredClone(values));
    else if (Array.isArray(current)) current.push(...structuredClone(values));
    else throw new Error(`Cannot apply $push to the non-array field "${path.join('.')}".`);
  }
  return result;
}

/** The document an upsert inserts: the filter's equalities, then the update (with `$setOnInsert`). */
export function buildUpsertDocument(filter: FilterNode, update: ParsedUpdate): Record<string, unknown> & { _id: string } {
  const seed: Record<string, unknown> = {};
  for (const [path, value] of equalityFields(filter)) writePath(seed, path, structuredClone(value));
  const inserted = applyUpdate(seed, update, true);
  return { ...inserted, _id: upsertId(filter, update) };
}

function readPath(document: Container, path: string[]): unknown {
  let current: unknown = document;
  for (const segment of path) {
    if (Array.isArray(current) && isIndex(segment)) current = current[Number(segment)];
    else if (isPlainObject(current)) current = current[segment];
    else return undefined;
  }
  return current;
}

function writePath(document: Container, path: string[], value: unknown): void {
  const parent = containerOf(document, path, true);
  setChild(parent!, path[path.length - 1]!, value, path);
}

function unsetPath(document: Container, path: string[]): void {
  const parent = containerOf(document, path, false);
  const last = path[path.length - 1]!;
  // MongoDB leaves a null in place of an unset array element rather than shifting the array.
  if (Array.isArray(parent)) {
    if (isIndex(last) && Number(last) < parent.length) parent[Number(last)] = null;
  } else if (parent) {
    delete parent[last];
  }
}

/** The object or array holding the path's last segment; created along the way when `create`. */
function containerOf(document: Container, path: string[], create: boolean): Container | undefined {
  let current: Container = document;
  for (const segment of path.slice(0, -1)) {
    const next = childOf(current, segment);
    if (next === undefined || next === null) {
      if (!create) return undefined;
      const created = {};
      setChild(current, segment, created, path);
      current = created;
    } else if (typeof next === 'object') {
      current = next as Container;
    } else if (create) {
      throw new Error(`Cannot create field "${path.join('.')}": "${segment}" holds a ${typeof next}.`);
    } else {
      return undefined;
    }
  }
  return current;
}

function childOf(container: Container, segment: string): unknown {
  if (Array.isArray(container)) return isIndex(segment) ? container[Number(segment)] : undefined;
  return container[segment];
}

function setChild(container: Container, segment: string, value: unknown, path: string[]): void {
  if (!Array.isArray(container)) {
    container[segment] = value;
    return;
  }
  if (!isIndex(segment)) throw new Error(`Cannot create field "${path.join('.')}": "${segment}" is not an index of an array.`);
  const index = Number(segment);
  while (container.length < index) container.push(null);
  container[index] = value;
}

function isIndex(segment: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(segment);
}
