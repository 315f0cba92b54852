/**
 * Toolsets: the tools grouped by their routes' tags, so that an agent that only searches marks
 * and computes deadlines can list those tools and not all of them (every tool's schemas go into
 * the model's context; the whole list is several hundred kilobytes). A connection names its
 * toolsets in the `/mcp?toolsets=…` URL, or `marque mcp --toolsets …` (MARQUE_MCP_TOOLSETS) over
 * stdio; without one it has every tool.
 */
import { invalid } from '../domain/errors';
import type { Tag } from '../rest/tags';

/** The toolset of a route tag: `Saved searches` → `saved-searches`. */
export function toolsetName(tag: Tag): string {
  return tag.toLowerCase().replace(/ /g, '-');
}

/** The toolsets of `tools`, in the order their first tools come. */
export function toolsetsOf(tools: ReadonlyArray<{ toolset: string }>): string[] {
  return [...new Set(tools.map((tool) => tool.toolset))];
}

/**
 * The tools of the toolsets `requested` names (comma-separated; undefined: every tool), in the
 * tools' own order. An unknown or empty name is the client's error, named by `parameter`.
 */
export function selectToolsets<Tool extends { toolset: string }>(tools: readonly Tool[], requested: string | undefined, parameter: string): readonly Tool[] {
  if (requested === undefined) return tools;
  const known = toolsetsOf(tools);
  const names = requested.split(',').map((name) => name.trim());
  for (const name of names) {
    if (name === '') throw invalid(parameter, 'must be toolset names separated by commas, with none empty');
    if (!known.includes(name)) throw invalid(parameter, `unknown toolset "${name}"; the toolsets are ${known.join(', ')}`);
  }
  const chosen = new Set(names);
  return tools.filter((tool) => chosen.has(tool.toolset));
}
