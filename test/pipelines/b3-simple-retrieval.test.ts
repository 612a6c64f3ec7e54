import { beforeAll, describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/measure/run-pipeline.ts';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import type { Encoder } from '../../src/embed/types.ts';
import { createUseLiteEncoder } from '../../src/embed/use-lite.ts';
import { loadFaiss } from '../../src/index/faiss-flat-ip.ts';
import {
  createSimpleRetrievalPipeline,
  RETRIEVED_SCHEMAS_HEADING,
  type SimpleRetrievalOptions,
} from '../../src/pipelines/b3-simple-retrieval/pipeline.ts';
import { promptText, type TurnResult } from '../../src/pipelines/types.ts';
import type { Task } from '../../src/tasks/types.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { context, memoEncoder, task, taCatalog } from '../fixtures/ta-catalog/helpers.ts';

const catalog = taCatalog();
const faiss = await loadFaiss();

/** B3 over the fixture catalog with the real use-lite encoder (retrieval is what is tested). */
describe('B3 Simple Retrieval (use-lite)', () => {
  let encoder: Encoder;
  beforeAll(async () => {
    encoder = memoEncoder(await createUseLiteEncoder());
  });

  async function run(options: SimpleRetrievalOptions, tasks: Task[]) {
    const pipeline = createSimpleRetrievalPipeline({ encoder, ...options });
    await pipeline.prepare!(context(catalog, { encoder }));
    const results: TurnResult[] = [];
    const turn = pipeline.turn.bind(pipeline);
    pipeline.turn = async (input) => {
      const r = await turn(input);
      results.push(r);
      return r;
    };
    const records = await runPipeline(pipeline, tasks, { catalog, tokens: tokenCounter('cl100k_base'), seed: 42 });
    return { pipeline, results, records };
  }

  const tasks = [
    task('t', [
      { user: 'post a message to the deploys channel saying the release is out', tools: ['chat/post_message'] },
      { user: 'what will the weather be like in Lisbon tomorrow?', tools: ['tracker/get_weather_forecast'] },
    ]),
  ];

  it('injects the top-k full schemas after the history, and nothing else about tools', async () => {
    const { results, records } = await run({ k: 3 }, tasks);
    const second = results[1]!;
    const sections = second.prompt.sections;
    expect(sections.map((s) => s.label).filter((l, i, all) => i === 0 || all[i - 1] !== l)).toEqual([
      'system',
      'turn-1',
      'retrieved-schemas',
      'user-message',
    ]);
    const schemaSections = sections.filter((s) => s.label === 'retrieved-schemas');
    expect(schemaSections.every((s) => s.role === 'tools' && !s.stable)).toBe(true);
    const ids = second.exposure.fullSchemaTools;
    expect(ids).toHaveLength(3);
    expect(second.exposure.listedTools).toEqual(ids); // no summaries: only the retrieved tools are visible
    const text = schemaSections.map((s) => s.text).join('');
    expect(text).toBe(
      `${RETRIEVED_SCHEMAS_HEADING}\n${ids.map((id) => `${serializeToolDefinition(catalog.tools.find((t) => t.id === id)!.definition)}\n`).join('')}`,
    );
    for (const t of catalog.tools) expect(text.includes(serializeToolDefinition(t.definition))).toBe(ids.includes(t.id));
    expect(text).not.toContain(catalog.tools.find((t) => !ids.includes(t.id))!.summary);
    expect(records[1]!.stablePrefixTokens).toBe(records[1]!.systemTokens);
    expect(records[1]!.toolTokens).toBe(tokenCounter('cl100k_base').encode(text).length);
    expect(records[1]!.promptTokens).toBe(tokenCounter('cl100k_base').encode(promptText(second.prompt)).length);
    expect(second.events).toBeUndefined();
  });

  it('retrieves the obviously relevant tool first', async () => {
    const { results } = await run({ k: 3 }, tasks);
    expect(results[0]!.exposure.fullSchemaTools).toContain('chat/post_message');
    expect(results[1]!.exposure.fullSchemaTools[0]).toBe('tracker/get_weather_forecast');
  });

  it('defaults to k = 10 with no threshold and no state gating, and records its settings', async () => {
    // No scopes at all: B3 ignores the state, so every turn still gets k schemas.
    const { results, pipeline } = await run({}, [task('t', [{ user: 'merge pull request 7', tools: ['repo/merge_pull_request'] }], [])]);
    expect(results[0]!.exposure.fullSchemaTools).toHaveLength(10);
    expect(pipeline.describe!()).toMatchObject({
      retrieval: { k: 10, toolText: 'definition', encoder: 'use-lite' },
      gates: { hallucination: false, preconditions: false },
    });
    expect(pipeline.describe!().retrieval?.theta).toBeUndefined();
  });

  it.skipIf(!faiss.ok)('gives the same prompts with the faiss and the exact index', async () => {
    const a = await run({ index: 'faiss' }, tasks);
    const b = await run({ index: 'exact' }, tasks);
    expect(a.pipeline.describe!().retrieval).toMatchObject({ index: 'faiss-flat-ip' });
    expect(b.pipeline.describe!().retrieval).toMatchObject({ index: 'exact-flat-ip' });
    expect(a.results.map((r) => r.prompt)).toEqual(b.results.map((r) => r.prompt));
  });
});
