import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { unitScheduling } from '../../src/bench/plan/study-hints.ts';
import { BENCH_REGISTRY } from '../../src/bench/units.ts';
import { createFullSchemaPipeline } from '../../src/pipelines/b1-full-schema/pipeline.ts';
import { checkedPipelineRegistry } from '../../src/pipelines/check-registry.ts';
import { PIPELINES, type PipelineEntry } from '../../src/pipelines/registry.ts';
import { PUBLISHED_MAIN } from '../../src/reference/published.ts';
import { retrieverByName } from '../../src/retrieval/registry.ts';
import { checkedStudyRegistry } from '../../src/studies/check-registry.ts';
import { STUDY_IDS } from '../../src/studies/ids.ts';
import { projectionStudy } from '../../src/studies/projection/study.ts';
import { STUDIES } from '../../src/studies/registry.ts';
import type { Study } from '../../src/studies/types.ts';
import { RegistryError } from '../../src/util/registry.ts';

/**
 * The extension points check themselves when their module loads: every registry below is the
 * bench's, already checked; the refusals are shown on registries built here, as a test or a
 * user's fork builds its own.
 */
const b1 = PIPELINES[0]!;
const entry = (over: Partial<PipelineEntry>): PipelineEntry =>
  ({
    id: 'mine',
    group: 'main',
    description: 'mine',
    create: () => ({ ...createFullSchemaPipeline(), id: 'mine' }),
    ...over,
  }) as PipelineEntry;

describe('pipeline registry', () => {
  it('is read-only: neither the list nor an entry can be changed', () => {
    expect(() => (PIPELINES as PipelineEntry[]).push(entry({}))).toThrow(TypeError);
    expect(() => ((PIPELINES as PipelineEntry[])[0] = entry({}))).toThrow(TypeError);
    expect(() => Object.assign(b1, { group: 'ablation' })).toThrow(TypeError);
  });

  it('gives every entry a description, and every published method its reference', () => {
    for (const p of PIPELINES) {
      expect(p.description.length, p.id).toBeGreaterThan(10);
      if (p.published) expect(p.reference.length, p.id).toBeGreaterThan(10);
    }
    // Published figures are printed beside these pipelines: each one is a published method.
    for (const id of Object.keys(PUBLISHED_MAIN).filter((id) => PIPELINES.some((p) => p.id === id)))
      expect(PIPELINES.find((p) => p.id === id)!.published, id).toBe(true);
  });

  const refusals: [string, PipelineEntry[], RegExp][] = [
    ['a repeated id', [b1, entry({ id: 'b1-full-schema', code: 'X' })], /id "b1-full-schema" registered twice/],
    [
      'an entry whose pipeline has another id',
      [entry({ id: 'first-n' })],
      /"first-n": creates a pipeline with id "mine"; expected the entry's id/,
    ],
    ['no description', [entry({ description: ' ' })], /"mine": expected a non-empty description/],
    [
      'a published method without its reference',
      [entry({ published: true, reference: '' })],
      /"mine": a published method without its reference/,
    ],
    ['a code used twice', [b1, entry({ code: 'B1' })], /code "B1" also used by "mine"/],
    ['two baselines', [b1, entry({ baseline: true })], /2 baselines \(b1-full-schema, mine\); expected one/],
    ['an ablation of nothing registered', [entry({ ablationOf: 'b9' })], /"mine": ablationOf "b9" is not a registered main method/],
  ];
  it.each(refusals)('refuses %s, naming the entry', (_, entries, pattern) => {
    expect(() => checkedPipelineRegistry(entries)).toThrow(RegistryError);
    expect(() => checkedPipelineRegistry(entries)).toThrow(pattern);
  });

  it('accepts a registry of its own, frozen, without touching the bench registry', () => {
    const mine = checkedPipelineRegistry([b1, entry({})]);
    expect(mine.map((p) => p.id)).toEqual(['b1-full-schema', 'mine']);
    expect(Object.isFrozen(mine) && Object.isFrozen(mine[1])).toBe(true);
    expect(PIPELINES.some((p) => p.id === 'mine')).toBe(false);
  });
});

describe('study registry', () => {
  it('holds one study per id of src/studies/ids.ts, in that order, read-only', () => {
    expect(STUDIES.map((s) => s.id)).toEqual([...STUDY_IDS]);
    expect(() => (STUDIES as Study[]).pop()).toThrow(TypeError);
    expect(() => Object.assign(STUDIES[0]!, { needsTasks: false })).toThrow(TypeError);
    for (const s of STUDIES) expect(s.description.length, s.id).toBeGreaterThan(10);
  });

  it('refuses a study registered under another id, without a description, or without its flags', () => {
    expect(() => checkedStudyRegistry([projectionStudy], ['scaling'])).toThrow(
      /"scaling": registered under "scaling" with id "projection"/,
    );
    expect(() => checkedStudyRegistry([{ ...projectionStudy, description: '' }])).toThrow(/"projection": expected a non-empty description/);
    expect(() => checkedStudyRegistry([{ ...projectionStudy, needsTasks: undefined } as unknown as Study])).toThrow(
      /expected readsPipelineResults and needsTasks/,
    );
    expect(() => checkedStudyRegistry([projectionStudy, { ...projectionStudy }])).toThrow(/id "projection" registered twice/);
  });

  it('keeps the scheduling hints on the studies, read by the scheduler from the registry', () => {
    const scheduling = (id: string) => unitScheduling({ kind: 'study', id }, BENCH_REGISTRY);
    expect(scheduling('scaling')).toMatchObject({ ownThread: true, largeWorkingSet: true });
    expect(scheduling('router-latency')).toEqual({ ownThread: true, cost: 5 });
    expect(scheduling('a test study')).toEqual({});
    expect(unitScheduling({ kind: 'pipeline', id: 'b1-full-schema' }, BENCH_REGISTRY)).toEqual({});
  });

  it('gives every built-in pipeline a module that exists (its code in its fingerprint)', () => {
    for (const p of PIPELINES) expect(existsSync(fileURLToPath(p.module!)), p.id).toBe(true);
  });

  it('gives every built-in study the module that defines it', () => {
    for (const s of STUDIES) expect(s.module, s.id).toMatch(new RegExp(`/src/studies/${s.id}/study\\.ts$`));
  });
});

describe('retriever registry', () => {
  it('names each retriever as registered (checked when first created)', () => {
    for (const name of ['bm25', 'learned+hybrid', 'learned:no-cues', 'hybrid-norm:no-vocabulary', 'dense:tfidf'])
      expect(retrieverByName(name).name).toBe(name);
  });
});
