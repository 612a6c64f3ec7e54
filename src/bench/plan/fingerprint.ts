import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { PipelineEntry } from '../../pipelines/types.ts';
import { pipelinesGivenTo, taskSetsRunBy } from '../../studies/common.ts';
import type { Study } from '../../studies/types.ts';
import { SUITES, type Suite } from '../../table/suites.ts';
import type { BenchInputs, BenchUnit } from '../types.ts';
import { studyOptions, type BenchRegistry } from '../units.ts';
import { CodeGraph, toPath } from './code-graph.ts';
import { unitKey } from './shards.ts';

/**
 * Each unit's fingerprint: the SHA-256 of everything its result depends on, so that a unit with
 * the same fingerprint as a recorded one gives the recorded result (src/results/unit-store.ts).
 *
 * - every unit: the engine's code that runs it (the modules ./units.ts reaches, not through the
 *   registries), the lockfile, Node.js's version, the repository's data (catalogs/, tasks/), and
 *   the run's inputs and options that reach units (catalog, calibration and history tasks,
 *   tokenizer, host, encoder, retriever, seed, --quick);
 * - a pipeline: its entry (metadata and the modules its module reaches), the task sets it runs
 *   on, and the studies that watch its turns or work on its results (their code);
 * - a study: its entry and code, every task set, the run's pipelines it is given (their entries
 *   and code: a study runs them or shows them; Study.pipelinesGiven, every one by default), the suites (with their data files), the options it takes
 *   (Study.options), and, for a study of the results, the fingerprints of the pipelines it reads.
 *
 * An entry whose code cannot be located (no `module`: not defined with definePipeline or
 * defineStudy) has none: its unit always runs.
 */
export interface FingerprintRun {
  root: string;
  registry: BenchRegistry;
  inputs: BenchInputs;
  pipelines: readonly PipelineEntry[];
  studies: readonly Study[];
  /** Reads a module's source (default the file; a test changes one module without touching it). */
  read?: (path: string) => Buffer | string;
}

/** Fingerprints by unit key (`pipeline/<id>`, `study/<id>`); a unit absent from the map is never reused. */
export async function unitFingerprints(run: FingerprintRun, units: readonly BenchUnit[]): Promise<Map<string, string>> {
  const code = await codeOf(run);
  const common = hashOf({ engine: code.engine, node: process.version, data: dataHash(run.root), inputs: sharedInputs(run.inputs) });
  const out = new Map<string, string>();
  const pipelineFp = new Map<string, string | undefined>();
  for (const entry of run.pipelines) {
    const watchers = run.studies.filter((s) => s.watchTurns || s.perPipeline);
    const parts = [code.of(entry), ...watchers.map((s) => code.of(s))];
    const fp = parts.includes(undefined)
      ? undefined
      : hashOf({
          common,
          entry: meta(entry),
          code: parts,
          taskSets: taskSetsRunBy(entry, run.inputs.taskSets),
          watchers: watchers.map((s) => s.id),
        });
    pipelineFp.set(entry.id, fp);
  }
  for (const unit of units) {
    if (unit.kind === 'pipeline') {
      const fp = pipelineFp.get(unit.id);
      if (fp) out.set(unitKey(unit), fp);
      continue;
    }
    const study = run.studies.find((s) => s.id === unit.id)!;
    const own = code.of(study);
    const given = pipelinesGivenTo(study, run.pipelines);
    const pipelinesCode = given.map((p) => code.of(p));
    if (own === undefined || pipelinesCode.includes(undefined)) continue;
    const read = study.readsPipelineResults ? run.pipelines.map((p) => pipelineFp.get(p.id)) : [];
    if (read.includes(undefined)) continue;
    out.set(
      unitKey(unit),
      hashOf({
        common,
        study: meta(study),
        code: own,
        taskSets: run.inputs.taskSets,
        pipelines: given.map(meta),
        pipelinesCode: run.inputs.taskSets.length ? pipelinesCode : [],
        suites: (run.registry.suites ?? SUITES).map((s) => suiteHash(s, run.root)),
        options: studyOptions(study, run.inputs),
        results: read,
      }),
    );
  }
  return out;
}

/** The registry modules: the engine's code stops there (each entry's own code is counted apart). */
const PIPELINE_REGISTRY = new URL('../../pipelines/registry.ts', import.meta.url).href;
const STUDY_REGISTRY = new URL('../../studies/registry.ts', import.meta.url).href;
const ENGINE = new URL('../units.ts', import.meta.url).href;

/** The code hashes of the engine and of each entry (undefined: not located). */
async function codeOf(run: FingerprintRun): Promise<{ engine: string; of: (entry: { module?: string }) => string | undefined }> {
  const modules = [ENGINE, ...[...run.pipelines, ...run.studies].flatMap((e) => (e.module ? [e.module] : []))];
  const graph = await CodeGraph.of(run.root, modules, run.read);
  const boundaries = new Set([PIPELINE_REGISTRY, STUDY_REGISTRY].map(toPath));
  const memo = new Map<string, string>();
  const hashFrom = (module: string) => {
    if (!memo.has(module)) memo.set(module, graph.hash(module, new Set([...boundaries].filter((b) => b !== toPath(module)))));
    return memo.get(module)!;
  };
  const lockfile = join(run.root, 'package-lock.json');
  const engine = hashOf({ code: graph.hash(ENGINE, boundaries), lockfile: existsSync(lockfile) ? sha256(readFileSync(lockfile)) : '' });
  return { engine, of: (entry) => (entry.module ? hashFrom(entry.module) : undefined) };
}

/** The inputs and options every unit reads (not where the run writes: a result does not depend on it). */
function sharedInputs(inputs: BenchInputs) {
  const { catalog, calibration, history, tokenizer, host, encoderName, retriever, seed, quick } = inputs;
  return { catalog, calibration, history, tokenizer, host, encoderName, retriever, seed, quick };
}

/** An entry's plain-data fields (its functions and module are its code, hashed apart). */
function meta(entry: object): unknown {
  return JSON.parse(JSON.stringify({ ...entry, module: undefined })) as unknown;
}

/** A suite's fields and the bytes of its data files (a study reads them from the root). */
function suiteHash(suite: Suite, root: string): string {
  const paths = suite.data ? [suite.data.catalog(root), suite.data.tasks(root)].flat() : [];
  return hashOf({ suite: meta(suite), data: paths.map((p) => filesHash(p, root)) });
}

/** The repository's data folders: the learned retriever's training set and the studies' catalogs and tasks come from there. */
function dataHash(root: string): string {
  return hashOf(['catalogs', 'tasks'].map((d) => filesHash(join(root, d), root)));
}

/** SHA-256 of a file, or of every file under a folder (with their paths); `(missing)` for nothing there. */
function filesHash(path: string, root: string): string {
  if (!existsSync(path)) return '(missing)';
  const files = statSync(path).isDirectory()
    ? readdirSync(path, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name))
        .sort()
    : [path];
  const hash = createHash('sha256');
  for (const f of files)
    hash
      .update(`${relative(root, f).split(sep).join('/')}\u0000`)
      .update(readFileSync(f))
      .update('\u0000');
  return hash.digest('hex');
}

function hashOf(value: unknown): string {
  return sha256(JSON.stringify(value));
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
