/**
 * The project root (the folder holding package.json), whether running from source or from dist/:
 * where schema/, data/ and the dashboard's build are found.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + __dirname);
    dir = parent;
  }
  return dir;
}
