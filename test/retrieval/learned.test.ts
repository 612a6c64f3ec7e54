import { describe, expect, it } from 'vitest';
import { retrieverByName } from '../../src/retrieval/registry.ts';
import { createLearnedRetriever, trainReranker } from '../../src/retrieval/learned/retriever.ts';
import { sameCatalog, trainingGroups, trainingSetFor, type TrainingSet } from '../../src/retrieval/learned/training-set.ts';
import { tasksForSeed } from '../../src/bench/synthetic-inputs.ts';
import { FEATURE, FEATURES, forEachFeatureRow, queryWords, toolWords, WordAssociations } from '../../src/retrieval/learned/features.ts';

// The dense first stage here is dense:tfidf, a stand-in for dense:use-lite that needs no model,
// so the test trains on slices of the real training sources in well under a second.
const bm25 = retrieverByName('bm25');
const dense = retrieverByName('dense:tfidf');

describe('learned reranker training data', () => {
  const groups = trainingGroups('message');
  const [synthetic, real, lmb] = groups;

  it('has three sources: synthetic calibration + history, the real query set, the LiveMCPBench development half', () => {
    expect(groups.map((g) => g.suite)).toEqual(['synthetic', 'real', 'livemcpbench']);
    const ids = new Set(synthetic!.turns.map((t) => t.taskId));
    expect([...ids].every((id) => /^cal\d{4}$/.test(id) || /^history:t\d{4}$/.test(id))).toBe(true);
    const evaluated = new Set([42, 43, 44].flatMap((s) => tasksForSeed(s).flatMap((t) => t.turns.map((u) => u.user))));
    expect(synthetic!.turns.filter((t) => evaluated.has(t.query.split('\n')[0]!))).toEqual([]);
    expect(real!.turns.length).toBeGreaterThan(300);
    expect(lmb!.turns).toHaveLength(47);
  });

  it('leaves out the source of the catalog it ranks (leave-one-suite-out), and nothing for an unseen catalog', () => {
    expect(trainingSetFor(synthetic!.tools, 'message').groups.map((g) => g.suite)).toEqual(['real', 'livemcpbench']);
    expect(trainingSetFor(real!.tools, 'message').groups.map((g) => g.suite)).toEqual(['synthetic', 'livemcpbench']);
    expect(trainingSetFor(lmb!.tools, 'message').groups.map((g) => g.suite)).toEqual(['synthetic', 'real']);
    expect(trainingSetFor([], 'message').groups).toHaveLength(3);
    // A catalog made mostly of one source's tools counts as that catalog; a few shared ids do not.
    expect(sameCatalog(real!, real!.tools.slice(0, 120))).toBe(true);
    expect(sameCatalog(lmb!, synthetic!.tools)).toBe(false);
  });
});

describe('learned reranker features', () => {
  it('names each position of a row once, in the order of the labels', () => {
    expect(Object.values(FEATURE).sort((a, b) => a - b)).toEqual(FEATURES.map((_, i) => i));
  });

  it('writes each named feature where its name says', () => {
    const tools = trainingGroups('message')[0]!.tools.slice(0, 3);
    const words = tools.map((t) => toolWords(t));
    const query = queryWords(`${tools[1]!.server} ${tools[1]!.name.replaceAll('_', ' ')}`);
    const bm25Scores = Float64Array.from([0, 4, 2]);
    const cosines = Float64Array.from([0.1, 0.5, 0.3]);
    const rows: Float64Array[] = [];
    forEachFeatureRow(query, words, bm25Scores, cosines, new WordAssociations(new Map()), (_, row) => rows.push(row.slice()));
    expect(rows.map((r) => r[FEATURE.bm25Share])).toEqual([0, 1, 0.5]);
    expect(rows.map((r) => r[FEATURE.bm25ReciprocalRank])).toEqual([0, 1, 0.5]);
    expect(rows.map((r) => r[FEATURE.denseCosine])).toEqual([0.1, 0.5, 0.3]);
    expect(rows[1]![FEATURE.denseCosineGap]).toBe(0);
    expect(rows.map((r) => r[FEATURE.denseReciprocalRank])).toEqual([1 / 3, 1, 0.5]);
    expect(rows[1]![FEATURE.nameWordShare]).toBe(1);
    expect(rows[1]![FEATURE.serverNamed]).toBe(1);
    expect(rows.map((r) => r[FEATURE.wordAssociation])).toEqual([0, 0, 0]);
  });
});

describe('learned reranker', () => {
  const synthetic = trainingGroups('message')[0]!;
  // Training runs on a slice (calibration turns first, every server) to keep the test fast.
  const slice: TrainingSet = { groups: [{ ...synthetic, turns: synthetic.turns.slice(0, 300) }], source: 'a slice' };

  it('is deterministic: the same training set gives the same weights and associations, bit for bit', async () => {
    const a = await trainReranker(slice, bm25, dense);
    const b = await trainReranker(slice, bm25, dense);
    expect(a.model).toEqual(b.model);
    expect(a.associations.size).toBe(b.associations.size);
    expect(a.model.weights).toHaveLength(FEATURES.length);
    expect(a.trainingTaskIds).toEqual([...new Set(slice.groups[0]!.turns.map((t) => t.taskId))]);
  });

  it('holds an ablated feature at 0: its weight stays 0', async () => {
    const a = await trainReranker(slice, bm25, dense, { vocabulary: true, disabled: [FEATURE.wordAssociation] });
    expect(a.model.weights[FEATURE.wordAssociation]).toBe(0);
  });

  it('ranks the needed tool first for a training-like query on the synthetic catalog and scores in [0, 1]', async () => {
    const learned = createLearnedRetriever({ bm25, dense, name: 'learned-test', training: () => slice, cacheDir: false });
    const fitted = await learned.fit(synthetic.tools);
    const [scores] = await fitted.score(['list the open pull requests on acme/web-app']);
    expect([...scores!].every((s) => s >= 0 && s <= 1)).toBe(true);
    const best = fitted.ids[scores!.indexOf(Math.max(...scores!))];
    expect(best).toMatch(/^github\/(list|search)_pull_requests$/);
    expect(fitted.fittedOn).toBe('a slice');
  });
});
