/** The kinds of entry a bench registry holds, each made by its define function. */
export type EntryKind = 'pipeline' | 'study' | 'suite';

/**
 * Marks the value definePipeline, defineStudy or defineSuite returned. The mark is not
 * enumerable, so a copy (`{ ...entry, create }`) has none: a worker lane imports an entry from
 * its module, and only the value the module exports is what the lane will find there.
 */
const DEFINED_AS = Symbol.for('tooltax.definedEntry');

/** `entry`, marked as a defined entry of `kind` (its `module` exports it). */
export function markDefined<T extends object>(entry: T, kind: EntryKind): T {
  Object.defineProperty(entry, DEFINED_AS, { value: kind });
  return entry;
}

/** The kind a define function marked `value` with; undefined for any other value (a copy, a plain object). */
export function definedKind(value: unknown): EntryKind | undefined {
  return typeof value === 'object' && value !== null ? ((value as { [DEFINED_AS]?: EntryKind })[DEFINED_AS] ?? undefined) : undefined;
}
