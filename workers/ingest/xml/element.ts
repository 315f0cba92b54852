/**
 * The small element tree one bulk record is assembled into (a `<case-file>`, an
 * `<assignment-entry>`, an ST.96 `<Trademark>`), with the lookups the mappers use. Names are local
 * names: a namespace prefix (`ns2:`, `com:`) is dropped, since each format's names are unique
 * without it.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own character data (not its children's), as written. */
  text: string;
}

/** The first child named `name`, or null. */
export function child(element: XmlElement | null, name: string): XmlElement | null {
  if (element === null) return null;
  for (const candidate of element.children) if (candidate.name === name) return candidate;
  return null;
}

/** Every child named `name`, in document order. */
export function children(element: XmlElement | null, name: string): XmlElement[] {
  return element === null ? [] : element.children.filter((candidate) => candidate.name === name);
}

/** Paths split once: the mappers look up the same few dozen paths in every record. */
const splitPaths = new Map<string, readonly string[]>();

function stepsOf(path: string): readonly string[] {
  let steps = splitPaths.get(path);
  if (steps === undefined) {
    steps = path.split('/');
    splitPaths.set(path, steps);
  }
  return steps;
}

function walk(element: XmlElement | null, steps: readonly string[], count: number): XmlElement | null {
  let current = element;
  for (let i = 0; i < count; i++) current = child(current, steps[i]!);
  return current;
}

/** The element at a slash-separated path of child names (`case-file-header/status-code`), or null. */
export function at(element: XmlElement | null, path: string): XmlElement | null {
  const steps = stepsOf(path);
  return walk(element, steps, steps.length);
}

/** Every element at a path whose last step may repeat (`case-file-owners/case-file-owner`). */
export function allAt(element: XmlElement | null, path: string): XmlElement[] {
  const steps = stepsOf(path);
  return children(walk(element, steps, steps.length - 1), steps[steps.length - 1]!);
}

/** Trimmed text at a path; null when the element is absent or empty. */
export function textAt(element: XmlElement | null, path: string): string | null {
  const text = at(element, path)?.text.trim();
  return text ? text : null;
}
