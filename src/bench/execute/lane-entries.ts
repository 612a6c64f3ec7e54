import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PipelineEntry } from '../../pipelines/types.ts';
import type { Study } from '../../studies/types.ts';
import { SUITES, type Suite } from '../../table/suites.ts';
import { definedKind, type EntryKind } from '../../util/defined-entry.ts';
import type { BenchRegistry } from '../units.ts';

/**
 * A worker lane is another thread, which cannot be handed a registry's functions: it imports
 * each entry of the run from the module that defines it (definePipeline, defineStudy,
 * defineSuite) and takes the value the module exports. Here are both sides: what the main
 * thread sends (plain data), and how the lane finds the entries again.
 */
export interface EntryRef {
  kind: EntryKind;
  id: string;
  /** The file: URL of the module that exports the entry. */
  module: string;
}

const DEFINE: Readonly<Record<EntryKind, string>> = { pipeline: 'definePipeline', study: 'defineStudy', suite: 'defineSuite' };

/**
 * The run's entries as a lane finds them: the pipelines and studies of the run (by id, absent:
 * all) and the registry's suites (absent: every built-in one). `unloadable` instead names the first entry a lane cannot
 * import (a plain object or a copy has no module that exports it): the run then has one lane.
 */
export function laneEntries(
  registry: BenchRegistry,
  pipelineIds?: readonly string[],
  studyIds?: readonly string[],
): { refs: EntryRef[] } | { unloadable: string } {
  const entries: (readonly [EntryKind, { id: string; module?: string }])[] = [
    ...registry.pipelines.filter((p) => !pipelineIds || pipelineIds.includes(p.id)).map((p) => ['pipeline', p] as const),
    ...registry.studies.filter((s) => !studyIds || studyIds.includes(s.id)).map((s) => ['study', s] as const),
    ...(registry.suites ?? SUITES).map((s) => ['suite', s] as const),
  ];
  const refs: EntryRef[] = [];
  for (const [kind, entry] of entries) {
    if (definedKind(entry) !== kind || entry.module === undefined)
      return { unloadable: `${kind} ${entry.id} is not a value ${DEFINE[kind]} returned (a plain object or a copy)` };
    checkModule(kind, entry.id, entry.module);
    refs.push({ kind, id: entry.id, module: entry.module });
  }
  return { refs };
}

/** An entry's module must be one a worker thread can import: the file: URL of a file that exists. */
function checkModule(kind: EntryKind, id: string, module: string): void {
  const where = `${kind} ${id}: module ${JSON.stringify(module)}`;
  let path: string;
  try {
    path = fileURLToPath(module);
  } catch {
    throw new Error(`${where}: expected the file: URL of the module that defines it (its import.meta.url)`);
  }
  if (!existsSync(path)) throw new Error(`${where}: no such file (${path})`);
}

/** The modules a lane imports for `refs`, each once, in order. */
export function entryModules(refs: readonly EntryRef[]): string[] {
  return [...new Set(refs.map((r) => r.module))];
}

/**
 * In the lane: the run's registry, each entry found among the exports of its module (an export
 * that is the entry, or an array holding it). Throws one line for an entry not found there.
 */
export function registryFromModules(
  refs: readonly EntryRef[],
  modules: ReadonlyMap<string, Readonly<Record<string, unknown>>>,
): BenchRegistry {
  const found = (ref: EntryRef): unknown => {
    const exports = Object.values(modules.get(ref.module) ?? {}).flatMap((v) => (Array.isArray(v) ? (v as unknown[]) : [v]));
    const entry = exports.find((v) => definedKind(v) === ref.kind && (v as { id?: unknown }).id === ref.id);
    if (!entry) throw new Error(`${ref.kind} ${ref.id}: not exported by ${ref.module}; export the value ${DEFINE[ref.kind]} returns`);
    return entry;
  };
  const of = <T>(kind: EntryKind) => refs.filter((r) => r.kind === kind).map((r) => found(r) as T);
  return { pipelines: of<PipelineEntry>('pipeline'), studies: of<Study>('study'), suites: of<Suite>('suite') };
}
