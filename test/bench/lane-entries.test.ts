import { describe, expect, it } from 'vitest';
import { entryModules, laneEntries, registryFromModules } from '../../src/bench/execute/lane-entries.ts';
import { BENCH_REGISTRY } from '../../src/bench/units.ts';
import { unexportedEntry } from './fixtures/unexported-entry.ts';

/** What a worker lane does with the run's entries (src/bench/execute/worker.ts), in this thread: import each module, find each entry. */
async function asLaneFinds(refs: Parameters<typeof registryFromModules>[0]) {
  const modules = new Map(
    await Promise.all(entryModules(refs).map(async (m) => [m, (await import(m)) as Record<string, unknown>] as const)),
  );
  return registryFromModules(refs, modules);
}

describe("a worker lane's entries", () => {
  it("finds every entry of the bench's registry among its module's exports, as the same value", async () => {
    const lane = laneEntries(BENCH_REGISTRY);
    if (!('refs' in lane)) throw new Error(lane.unloadable);
    expect(lane.refs).toHaveLength(BENCH_REGISTRY.pipelines.length + BENCH_REGISTRY.studies.length + BENCH_REGISTRY.suites!.length);
    const found = await asLaneFinds(lane.refs);
    expect(found.pipelines).toHaveLength(BENCH_REGISTRY.pipelines.length);
    found.pipelines.forEach((p, i) => expect(p, p.id).toBe(BENCH_REGISTRY.pipelines[i]));
    found.studies.forEach((s, i) => expect(s, s.id).toBe(BENCH_REGISTRY.studies[i]));
    found.suites!.forEach((s, i) => expect(s, s.id).toBe(BENCH_REGISTRY.suites![i]));
  });

  it("takes only the run's pipelines and studies", () => {
    const lane = laneEntries(BENCH_REGISTRY, ['b4-cli-lazy'], ['aacp']);
    if (!('refs' in lane)) throw new Error(lane.unloadable);
    expect(lane.refs.filter((r) => r.kind !== 'suite').map((r) => [r.kind, r.id, r.module.replace(/^.*\/src\//, '')])).toEqual([
      ['pipeline', 'b4-cli-lazy', 'pipelines/b4-cli-lazy/pipeline.ts'],
      ['study', 'aacp', 'studies/aacp/study.ts'],
    ]);
  });

  it('names the first entry no module exports: a copy keeps the run in one lane', () => {
    const [b1, ...rest] = BENCH_REGISTRY.pipelines;
    expect(laneEntries({ ...BENCH_REGISTRY, pipelines: [{ ...b1! }, ...rest] })).toEqual({
      unloadable: 'pipeline b1-full-schema is not a value definePipeline returned (a plain object or a copy)',
    });
  });

  it('stops with one line for an entry its module does not export', async () => {
    const lane = laneEntries({ pipelines: [unexportedEntry()], studies: [], suites: [] });
    if (!('refs' in lane)) throw new Error(lane.unloadable);
    await expect(asLaneFinds(lane.refs)).rejects.toThrow(
      /^pipeline b1-full-schema: not exported by file:.*\/unexported-entry\.ts; export the value definePipeline returns$/,
    );
  });
});
