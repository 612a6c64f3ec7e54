import { describe, expect, it } from 'vitest';
import { retrieverByName } from '../../src/retrieval/registry.ts';
import { createLearnedRetriever, trainReranker } from '../../src/retrieval/learned/retriever.ts';
import { defaultTrainingSet } from '../../src/retrieval/learned/training-set.ts';
import { tasksForSeed } from '../../src/commands/prepare-inputs.ts';
import { FEATURES } from '../../src/retrieval/learned/features.ts';

// The dense first stage here is dense:tfidf, a stand-in for dense:use-lite that needs no model,
// so the test trains on the real default training set in well under a second.
const bm25 = retrieverByName('bm25');
const dense = retrieverByName('dense:tfidf');

describe('learned reranker', () => {
  const set = defaultTrainingSet('message');
  // Training runs on a slice (calibration turns first, every server) to keep the test fast.
  const slice = { ...set, turns: set.turns.slice(0, 300) };

  it('trains only on calibration and history tasks, never on an evaluated task or message, never on tasks/real', () => {
    const ids = new Set(set.turns.map((t) => t.taskId));
    expect([...ids].every((id) => /^cal\d{4}$/.test(id) || /^history:t\d{4}$/.test(id))).toBe(true);
    expect([...ids].some((id) => id.startsWith('history:'))).toBe(true);
    const evaluated = new Set([42, 43, 44].flatMap((s) => tasksForSeed(s).flatMap((t) => t.turns.map((u) => u.user))));
    expect(set.turns.filter((t) => evaluated.has(t.query.split('\n')[0]!))).toEqual([]);
    expect(set.tools.every((t) => !t.id.includes('github-mcp-server'))).toBe(true);
  });

  it('is deterministic: the same training set gives the same weights and associations, bit for bit', async () => {
    const a = await trainReranker(slice, bm25, dense);
    const b = await trainReranker(slice, bm25, dense);
    expect(a.model).toEqual(b.model);
    expect(a.associations.size).toBe(b.associations.size);
    expect(a.model.weights).toHaveLength(FEATURES.length);
    expect(a.trainingTaskIds).toEqual([...new Set(slice.turns.map((t) => t.taskId))]);
  });

  it('ranks the needed tool first for a training-like query on the synthetic catalog and scores in [0, 1]', async () => {
    const learned = createLearnedRetriever({ bm25, dense, name: 'learned-test', training: () => slice, cacheDir: false });
    const fitted = await learned.fit(set.tools);
    const [scores] = await fitted.score(['list the open pull requests on acme/web-app']);
    expect([...scores!].every((s) => s >= 0 && s <= 1)).toBe(true);
    const best = fitted.ids[scores!.indexOf(Math.max(...scores!))];
    expect(best).toMatch(/^github\/(list|search)_pull_requests$/);
  });
});
