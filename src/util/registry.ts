/**
 * A registry of extension points (pipelines, studies, retrievers), checked when its module
 * loads and read-only after: an entry with a duplicate id or missing metadata stops every
 * command at start-up with one line naming it, instead of surfacing as a wrong table later.
 * Tests build their own registry with the same function instead of changing a global one.
 */
export class RegistryError extends Error {
  override name = 'RegistryError';
}

/**
 * The entries, frozen (the list and each entry), after checking that ids are unique and
 * non-empty and that `problem` finds nothing wrong with any entry (it returns what is wrong, or
 * undefined). `what` names the registry in errors (`pipeline registry`).
 */
export function checkedRegistry<T extends object>(
  what: string,
  entries: readonly T[],
  idOf: (entry: T) => string,
  problem: (entry: T, all: readonly T[]) => string | undefined = () => undefined,
): readonly T[] {
  const seen = new Set<string>();
  for (const entry of entries) {
    const id = idOf(entry);
    if (typeof id !== 'string' || id.trim() === '') throw new RegistryError(`${what}: an entry without an id`);
    if (seen.has(id)) throw new RegistryError(`${what}: id ${JSON.stringify(id)} registered twice`);
    seen.add(id);
    const wrong = problem(entry, entries);
    if (wrong) throw new RegistryError(`${what}: ${JSON.stringify(id)}: ${wrong}`);
  }
  return Object.freeze(entries.map((e) => Object.freeze(e)));
}

/** The problem of a required text field: absent or blank. */
export function missingText(value: unknown, field: string): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? undefined : `expected a non-empty ${field}`;
}
