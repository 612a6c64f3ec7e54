import { beforeAll, describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/measure/run-pipeline.ts';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import type { Encoder } from '../../src/embed/types.ts';
import { createUseLiteEncoder } from '../../src/embed/use-lite.ts';
import { loadFaiss } from '../../src/index/faiss-flat-ip.ts';
import type { RoutingEvent } from '../../src/pipelines/tool-attention/events.ts';
import { createToolAttentionPipeline, type ToolAttentionOptions } from '../../src/pipelines/tool-attention/pipeline.ts';
import type { TurnResult } from '../../src/pipelines/types.ts';
import type { Task } from '../../src/tasks/types.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { context, memoEncoder, task, taCatalog } from '../fixtures/ta-catalog/helpers.ts';

const catalog = taCatalog();
const faiss = await loadFaiss();

/** Tool Attention over the fixture catalog with the real use-lite encoder. */
describe('Tool Attention retrieval (use-lite)', () => {
  let encoder: Encoder;
  beforeAll(async () => {
    encoder = memoEncoder(await createUseLiteEncoder());
  });

  async function run(options: ToolAttentionOptions, tasks: Task[]) {
    const pipeline = createToolAttentionPipeline({ encoder, ...options });
    await pipeline.prepare!(context(catalog, { encoder }));
    const results: TurnResult[] = [];
    const turn = pipeline.turn.bind(pipeline);
    pipeline.turn = async (input) => {
      const r = await turn(input);
      results.push(r);
      return r;
    };
    await runPipeline(pipeline, tasks, { catalog, tokens: tokenCounter('cl100k_base'), seed: 42 });
    return { pipeline, results, routing: results.map((r) => r.events!.find((e) => e.type === 'routing') as unknown as RoutingEvent) };
  }

  const tasks = [
    task('t', [
      { user: 'post a message to the deploys channel saying the release is out', tools: ['chat/post_message'] },
      { user: 'what will the weather be like in Lisbon tomorrow?', tools: ['tracker/get_weather_forecast'] },
    ]),
  ];

  it('promotes the relevant tool and leaves unrelated schemas out (summaries stay)', async () => {
    const { results, routing } = await run({ theta: 0, k: 3 }, tasks);
    expect(routing[0]!.active_set).toContain('chat/post_message');
    expect(routing[1]!.active_set[0]).toBe('tracker/get_weather_forecast');
    const promoted = results[1]!.prompt.sections.find((s) => s.label === 'promoted-schemas')!;
    const pool = results[1]!.prompt.sections.find((s) => s.label === 'summary-pool')!;
    const merge = catalog.tools.find((t) => t.id === 'repo/merge_pull_request')!;
    expect(promoted.text).not.toContain(serializeToolDefinition(merge.definition));
    expect(pool.text).toContain(merge.summary);
    expect(results.flatMap((r) => r.events!.filter((e) => e.type === 'hallucination_gate'))).toEqual([]);
  });

  it('a high θ promotes nothing and the gate rejects the needed call', async () => {
    const { results, routing } = await run({ theta: 0.99, k: 3 }, tasks);
    expect(routing.map((r) => r.active_set)).toEqual([[], []]);
    expect(results[0]!.prompt.sections.map((s) => s.label)).not.toContain('promoted-schemas');
    expect(results[0]!.events).toContainEqual({
      type: 'hallucination_gate',
      turn: 0,
      tool: 'chat/post_message',
      error: { error: 'tool_not_available', tool: 'chat/post_message', available: [] },
    });
  });

  it.skipIf(!faiss.ok)('routes identically with the faiss and the exact index', async () => {
    const a = await run({ theta: 0.1, index: 'faiss' }, tasks);
    const b = await run({ theta: 0.1, index: 'exact' }, tasks);
    expect(a.pipeline.describe!().retrieval).toMatchObject({ index: 'faiss-flat-ip' });
    expect(b.pipeline.describe!().retrieval).toMatchObject({ index: 'exact-flat-ip' });
    const strip = (r: RoutingEvent) => ({ ...r, latency_ms: 0 });
    expect(a.routing.map(strip)).toEqual(b.routing.map(strip));
  });
});
