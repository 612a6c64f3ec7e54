import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInputs, unitInputs } from '../../src/bench/inputs.ts';
import { unitFingerprints } from '../../src/bench/plan/fingerprint.ts';
import { planRun } from '../../src/bench/plan/plan.ts';
import { unitKey } from '../../src/bench/plan/shards.ts';
import { BENCH_REGISTRY } from '../../src/bench/units.ts';
import { smallTaskFile } from '../helpers/result-files.ts';
import { smallBenchOptions } from '../helpers/small-runs.ts';
import { makeTempDir } from '../helpers/temp.ts';

/**
 * The fingerprints of the bench's own registry (nothing runs): a change to one module changes
 * the fingerprints of exactly the units whose code reaches it, and of the studies that read them.
 */
const dir = makeTempDir('tooltax-fingerprint-');
const opts = smallBenchOptions(smallTaskFile(join(dir, 'tasks.jsonl'), 1), { root: process.cwd() });
const inputs = readInputs(opts);
const { pipelines, studies } = BENCH_REGISTRY;
const plan = planRun({ pipelines, studies, taskSets: inputs.taskSets }, []);
const forUnits = unitInputs(opts, inputs, { cacheDir: dir, resultsDir: dir, pipelines, studies });

/** The fingerprints with `file` (relative to the root) read as changed, of the run's pipelines (default all). */
function fingerprints(changed?: string, runPipelines = pipelines) {
  const read = (path: string) => {
    const bytes = readFileSync(path);
    return changed && path === join(process.cwd(), changed) ? Buffer.concat([bytes, Buffer.from('\n// changed\n')]) : bytes;
  };
  const inputsOfRun = { ...forUnits, pipelineIds: runPipelines.map((p) => p.id) };
  return unitFingerprints(
    { root: process.cwd(), registry: BENCH_REGISTRY, inputs: inputsOfRun, pipelines: runPipelines, studies, read },
    plan.units.filter((u) => u.kind === 'study' || runPipelines.some((p) => p.id === u.id)),
  );
}

/** The studies that use no pipeline: a pipeline's change or a new one does not reach them. */
const GIVEN_NO_PIPELINE = ['aacp', 'kv-schema', 'retrieval', 'router-latency'];
const studyKeysBut = (ids: readonly string[]) =>
  studies
    .filter((s) => !ids.includes(s.id))
    .map((s) => `study/${s.id}`)
    .sort();

/** The units whose fingerprint differs between two maps. */
const changedUnits = (a: Map<string, string>, b: Map<string, string>) => plan.units.map(unitKey).filter((k) => a.get(k) !== b.get(k));

describe('unit fingerprints of the bench registry', () => {
  it('gives every unit one, the same twice, and a different one to each unit', async () => {
    const a = await fingerprints();
    expect(a.size).toBe(plan.units.length);
    expect(await fingerprints()).toEqual(a);
    expect(new Set(a.values()).size).toBe(a.size);
  });

  it("a change to B4's module changes B4, its oracle ablation, and the studies given it (Study.pipelinesGiven), nothing else", async () => {
    const changed = changedUnits(await fingerprints(), await fingerprints('src/pipelines/b4-cli-lazy/pipeline.ts'));
    expect(changed.filter((k) => k.startsWith('pipeline/')).sort()).toEqual(['pipeline/b4-cli-lazy', 'pipeline/b4-cli-lazy-oracle']);
    expect(changed.filter((k) => k.startsWith('study/')).sort()).toEqual(studyKeysBut(GIVEN_NO_PIPELINE));
  });

  it('a new baseline in the registry leaves every other pipeline as it was: only it and the studies run', async () => {
    const without = await fingerprints(
      undefined,
      pipelines.filter((p) => p.id !== 'b2-static-pruning'),
    );
    const all = await fingerprints();
    const changed = [...all.keys()].filter((k) => without.get(k) !== all.get(k));
    // B2 is a method of the main table, not one of those the host search table shows beside the searches.
    expect(changed.sort()).toEqual(['pipeline/b2-static-pruning', ...studyKeysBut([...GIVEN_NO_PIPELINE, 'host-search'])].sort());
  });

  it("a change to one pipeline's own file changes it alone among the pipelines; a registration line, no unit", async () => {
    const base = await fingerprints();
    const changed = changedUnits(base, await fingerprints('src/pipelines/b1-full-schema/pipeline.ts'));
    expect(changed.filter((k) => k.startsWith('pipeline/'))).toEqual(['pipeline/b1-full-schema']);
    expect(changedUnits(base, await fingerprints('src/pipelines/registry.ts'))).toEqual([]);
  });

  it("a change to one study's module changes that study alone", async () => {
    expect(changedUnits(await fingerprints(), await fingerprints('src/studies/aacp/study.ts'))).toEqual(['study/aacp']);
  });

  it("a change to the engine's unit runner changes every unit; a change to the lanes' messaging, none", async () => {
    const base = await fingerprints();
    expect(changedUnits(base, await fingerprints('src/bench/units.ts'))).toHaveLength(plan.units.length);
    expect(changedUnits(base, await fingerprints('src/bench/execute/lanes.ts'))).toEqual([]);
  });
});
