import { makeTempDir } from '../helpers/temp.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/measure/run-pipeline.ts';
import type { Catalog } from '../../src/catalog/types.ts';
import { sweepThreshold } from '../../src/embed/threshold.ts';
import { dot } from '../../src/embed/vector.ts';
import { ExactFlatIpIndex } from '../../src/index/exact-flat-ip.ts';
import { promptText, type AgentState, type PromptSection } from '../../src/pipelines/types.ts';
import { hasCleanSeams } from '../../src/prompt/sections.ts';
import { calibrateTheta, calibrationPath } from '../../src/pipelines/tool-attention/calibration.ts';
import type { PipelineSettings, ThresholdCalibration } from '../../src/results/pipeline-settings.ts';
import { calibrationTable } from '../../src/studies/threshold-calibration/study.ts';
import type { RoutingEvent } from '../../src/pipelines/tool-attention/events.ts';
import { gateErrorText, hallucinationGate } from '../../src/pipelines/tool-attention/hallucination-gate.ts';
import { LazySchemaLoader } from '../../src/pipelines/tool-attention/lazy-loader.ts';
import {
  createToolAttentionPipeline,
  PROMOTED_SCHEMAS_HEADING,
  type ToolAttentionOptions,
} from '../../src/pipelines/tool-attention/pipeline.ts';
import { preconditionHolds, stateGate, unmetPreconditions } from '../../src/pipelines/tool-attention/preconditions.ts';
import { IntentRouter } from '../../src/pipelines/tool-attention/router.ts';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import type { Task } from '../../src/tasks/types.ts';
import { ALL_SCOPES, context, keywordEncoder, task, taCatalog } from '../fixtures/ta-catalog/helpers.ts';

const catalog = taCatalog();
const byId = new Map(catalog.tools.map((t) => [t.id, t]));
const state = (authScopes: string[], toolOutputs: string[] = []): AgentState => ({ authScopes: new Set(authScopes), toolOutputs });

interface Turn {
  sections: PromptSection[];
  fullSchemaTools: string[];
  listedTools: string[];
  events: Record<string, unknown>[];
}

/** Run a pipeline over tasks through the real runner; return each turn's prompt, exposure and events. */
async function run(options: ToolAttentionOptions, tasks: Task[], cat: Catalog = catalog, extra = {}) {
  const pipeline = createToolAttentionPipeline({ theta: 0.3, encoder: keywordEncoder(), ...options });
  await pipeline.prepare!(context(cat, extra));
  const turns: Turn[] = [];
  const original = pipeline.turn.bind(pipeline);
  pipeline.turn = async (input) => {
    const r = await original(input);
    turns.push({
      sections: r.prompt.sections,
      fullSchemaTools: r.exposure.fullSchemaTools,
      listedTools: r.exposure.listedTools,
      events: r.events ?? [],
    });
    return r;
  };
  const records = await runPipeline(pipeline, tasks, { catalog: cat, tokens: tokenCounter('cl100k_base'), seed: 42 });
  return { pipeline, turns, records };
}

/** Section labels with consecutive repeats collapsed (a schema part is a heading plus one section per tool). */
const parts = (sections: PromptSection[]) => sections.map((s) => s.label).filter((l, i, all) => i === 0 || all[i - 1] !== l);
const textOf = (sections: PromptSection[], label: string) =>
  sections
    .filter((s) => s.label === label)
    .map((s) => s.text)
    .join('');

const routing = (t: Turn) => t.events.find((e) => e.type === 'routing') as unknown as RoutingEvent;
const gateEvents = (t: Turn) => t.events.filter((e) => e.type === 'hallucination_gate');

const MOVE = 'move the ticket to Done status';
const SEARCH = 'search tickets about the login bug';

describe('precondition gate', () => {
  it('requires_auth: a missing scope fails, a held one passes', () => {
    const p = { kind: 'requires_auth', scope: 'tracker:write' } as const;
    expect(preconditionHolds(p, state(['tracker:read']))).toBe(false);
    expect(preconditionHolds(p, state(['tracker:read', 'tracker:write']))).toBe(true);
  });

  it('after_tool_output: fails before a search, holds once a search output is held', () => {
    const transition = byId.get('tracker/transition_issue')!;
    expect(unmetPreconditions(transition, state(ALL_SCOPES)).map((p) => p.kind)).toEqual(['after_tool_output']);
    expect(unmetPreconditions(transition, state(ALL_SCOPES, ['create_issue']))).toHaveLength(1);
    expect(unmetPreconditions(transition, state(ALL_SCOPES, ['search_issues']))).toEqual([]);
    const gate = stateGate(byId, state(['tracker:read'], ['search_issues']));
    expect(gate('tracker/transition_issue')).toEqual(['requires_auth tracker:write']);
    expect(gate('tracker/search_issues')).toEqual([]);
    expect(gate('tracker/get_weather_forecast')).toEqual([]);
  });

  it('in the pipeline: a missing scope gates the tool out of the active set', async () => {
    const { turns } = await run({}, [
      task('no-write', [{ user: 'file a new ticket for the bug in project WEB', tools: ['tracker/create_issue'] }], ['tracker:read']),
    ]);
    const ev = routing(turns[0]!);
    expect(ev.candidates).toContain('tracker/create_issue');
    expect(ev.gated_out_by_state).toContainEqual({ tool: 'tracker/create_issue', unmet: ['requires_auth tracker:write'] });
    expect(ev.active_set).not.toContain('tracker/create_issue');
  });

  it('in the pipeline: after_tool_output gates a transition out before a search and lets it in after one', async () => {
    const { turns } = await run({}, [
      task('cold', [{ user: MOVE, tools: ['tracker/transition_issue'] }]),
      task('warm', [
        { user: SEARCH, tools: ['tracker/search_issues'] },
        { user: MOVE, tools: ['tracker/transition_issue'] },
      ]),
    ]);
    const [cold, , warm] = turns;
    expect(routing(cold!).gated_out_by_state.map((g) => g.tool)).toContain('tracker/transition_issue');
    expect(routing(cold!).active_set).not.toContain('tracker/transition_issue');
    expect(routing(warm!).gated_out_by_state.map((g) => g.tool)).not.toContain('tracker/transition_issue');
    expect(routing(warm!).active_set[0]).toBe('tracker/transition_issue');
  });

  it('switched off (ISO only), nothing is gated out by state', async () => {
    const { turns } = await run({ preconditionGate: false }, [task('cold', [{ user: MOVE, tools: ['tracker/transition_issue'] }])]);
    expect(routing(turns[0]!).gated_out_by_state).toEqual([]);
    expect(routing(turns[0]!).active_set).toContain('tracker/transition_issue');
  });
});

describe('hallucination gate', () => {
  it('returns the structured error for a non-promoted tool and nothing for a promoted one', () => {
    expect(hallucinationGate(['a/x', 'b/y'], ['a/x'])).toEqual([]);
    const [err] = hallucinationGate(['a/x', 'b/y'], ['a/x', 'c/z']);
    expect(err).toEqual({ error: 'tool_not_available', tool: 'c/z', available: ['a/x', 'b/y'] });
    expect(JSON.parse(gateErrorText(err!))).toEqual(err);
  });

  it('in the pipeline: triggers (with an event) when the needed tool was not promoted, not when it was', async () => {
    const { turns, pipeline } = await run({}, [
      task('cold', [{ user: MOVE, tools: ['tracker/transition_issue'] }]),
      task('warm', [
        { user: SEARCH, tools: ['tracker/search_issues'] },
        { user: MOVE, tools: ['tracker/transition_issue'] },
      ]),
    ]);
    const [cold, search, warm] = turns;
    expect(gateEvents(cold!)).toEqual([
      {
        type: 'hallucination_gate',
        turn: 0,
        tool: 'tracker/transition_issue',
        error: { error: 'tool_not_available', tool: 'tracker/transition_issue', available: routing(cold!).active_set },
      },
    ]);
    expect(gateEvents(search!)).toEqual([]);
    expect(gateEvents(warm!)).toEqual([]);
    const stats = (pipeline.describe!().details as { stats: { gateRejections: number; turnsWithRejection: number; turns: number } }).stats;
    expect(stats).toMatchObject({ gateRejections: 1, turnsWithRejection: 1, turns: 3 });
  });

  it('switched off, an unpromoted call passes and is only recorded', async () => {
    const { turns } = await run({ hallucinationGate: false }, [task('cold', [{ user: MOVE, tools: ['tracker/transition_issue'] }])]);
    expect(gateEvents(turns[0]!)).toEqual([]);
    expect(turns[0]!.events).toContainEqual({ type: 'unpromoted_call', turn: 0, tool: 'tracker/transition_issue' });
  });
});

describe('lazy schema loader (LRU)', () => {
  it('evicts the least recently used entry and counts hits, misses and evictions', () => {
    const fetched: string[] = [];
    const loader = new LazySchemaLoader(2, (id) => {
      fetched.push(id);
      return { id };
    });
    loader.get('a');
    loader.get('b');
    expect(loader.get('a')).toEqual({ id: 'a' }); // hit: a becomes most recent
    loader.get('c'); // evicts b, the least recently used
    expect(loader.keys()).toEqual(['a', 'c']);
    loader.get('b'); // miss again: evicts a
    expect(loader.keys()).toEqual(['c', 'b']);
    expect(fetched).toEqual(['a', 'b', 'c', 'b']);
    expect(loader.stats()).toEqual({ capacity: 2, hits: 1, misses: 4, evictions: 2, size: 2 });
    expect(() => new LazySchemaLoader(0, () => 1)).toThrow(/capacity/);
  });

  it('in the pipeline, promoted schemas come through the loader', async () => {
    const { pipeline, turns } = await run({ loaderCapacity: 1, k: 2 }, [
      task('t', [
        { user: SEARCH, tools: ['tracker/search_issues'] },
        { user: SEARCH, tools: ['tracker/search_issues'] },
      ]),
    ]);
    const loader = (pipeline.describe!().details as { stats: { loader: { hits: number; misses: number; evictions: number } } }).stats
      .loader;
    const promoted = turns.reduce((n, t) => n + routing(t).active_set.length, 0);
    expect(loader.hits + loader.misses).toBe(promoted);
    expect(loader.evictions).toBe(loader.misses - 1);
  });
});

describe('router', () => {
  it('walks by ISO score, stops below θ, caps at k and widens its slate past gated-out tools', async () => {
    const enc = keywordEncoder();
    const ids = Array.from({ length: 60 }, (_, i) => `s/t${String(i).padStart(2, '0')}`);
    const index = new ExactFlatIpIndex(enc.dim);
    const [v] = await enc.embed(['deploy']);
    index.add(
      ids,
      ids.map(() => v!),
    ); // all score 1: ties by id
    const router = new IntentRouter(index);
    const gate = (id: string) => (id < 's/t45' ? ['blocked'] : []); // first 45 gated out: more than the 20-hit slate
    const r = router.route(v!, { k: 3, theta: 0.5, gate });
    expect(r.active.map((h) => h.id)).toEqual(['s/t45', 's/t46', 's/t47']);
    expect(r.gatedOut).toHaveLength(45);
    expect(router.route(v!, { k: 3, theta: 1.5 }).active).toEqual([]);
    expect(router.route(v!, { k: 0, theta: 0 }).active).toEqual([]);
  });
});

describe('Tool Attention prompt', () => {
  const tasks = [
    task('warm', [
      { user: SEARCH, tools: ['tracker/search_issues'] },
      { user: MOVE, tools: ['tracker/transition_issue'] },
    ]),
  ];

  it('summary pool (stable) right after the system text; promoted schemas right before the user message', async () => {
    const { turns, records } = await run({}, tasks);
    const second = turns[1]!;
    expect(parts(second.sections)).toEqual(['system', 'summary-pool', 'turn-1', 'promoted-schemas', 'user-message']);
    const pool = second.sections[1]!;
    expect(pool.stable).toBe(true);
    expect(second.sections.filter((s) => s.label === 'promoted-schemas').every((s) => !s.stable && s.role === 'tools')).toBe(true);
    const promoted = textOf(second.sections, 'promoted-schemas');
    // Phase 1: every tool's summary line, no schema.
    for (const t of catalog.tools) expect(pool.text).toContain(`- ${t.id}: ${t.summary}`);
    expect(pool.text).not.toContain('inputSchema');
    // Phase 2: exactly the active set's full definitions.
    const active = routing(second).active_set;
    expect(second.fullSchemaTools).toEqual(active);
    expect(second.listedTools).toHaveLength(catalog.tools.length);
    expect(promoted).toBe(
      `${PROMOTED_SCHEMAS_HEADING}\n${active.map((id) => `${serializeToolDefinition(catalog.tools.find((t) => t.id === id)!.definition)}\n`).join('')}`,
    );
    for (const t of catalog.tools) expect(promoted.includes(serializeToolDefinition(t.definition))).toBe(active.includes(t.id));
    expect(active.length).toBeLessThanOrEqual(10);
    // Token split recorded in both the metrics and the events.
    expect(records[1]!.toolTokensByLabel['summary-pool']).toBe(routing(second).phase1_tokens);
    expect(records[1]!.toolTokensByLabel['promoted-schemas']).toBe(routing(second).phase2_tokens);
    expect(records[1]!.stablePrefixTokens).toBe(records[1]!.systemTokens + routing(second).phase1_tokens);
    // Split into sections, the counts still add up to the count of the whole prompt.
    expect(hasCleanSeams(second.sections)).toBe(true);
    expect(records[1]!.promptTokens).toBe(tokenCounter('cl100k_base').encode(promptText({ sections: second.sections })).length);
    expect(routing(second).phase2_tokens).toBe(tokenCounter('cl100k_base').encode(promoted).length);
  });

  it('records the routing event fields of the paper', async () => {
    const { turns } = await run({}, tasks);
    const ev = routing(turns[1]!);
    for (const key of [
      'turn',
      'query_embedding_hash',
      'candidates',
      'scores',
      'gated_out_by_state',
      'active_set',
      'phase1_tokens',
      'phase2_tokens',
      'latency_ms',
    ])
      expect(ev).toHaveProperty(key);
    expect(ev.turn).toBe(1);
    expect(ev.query_embedding_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(ev.scores).toHaveLength(ev.candidates.length);
    expect(ev.scores.every((s) => s >= ev.theta)).toBe(true);
    expect([...ev.scores].sort((a, b) => b - a)).toEqual(ev.scores);
  });

  it('skipPhase2 keeps routing but injects no schema; k = 0 promotes nothing and the gate rejects every call', async () => {
    const skip = await run({ skipPhase2: true }, tasks);
    expect(parts(skip.turns[1]!.sections)).toEqual(['system', 'summary-pool', 'turn-1', 'user-message']);
    expect(skip.turns[1]!.fullSchemaTools).toEqual([]);
    expect(routing(skip.turns[1]!).active_set).toContain('tracker/transition_issue');
    expect(gateEvents(skip.turns[1]!)).toEqual([]);

    const none = await run({ phase1Only: true }, tasks);
    expect(none.turns.map((t) => routing(t).active_set)).toEqual([[], []]);
    expect(none.turns.flatMap(gateEvents).map((e) => e.tool)).toEqual(['tracker/search_issues', 'tracker/transition_issue']);
    expect(none.pipeline.describe!().retrieval?.k).toBe(0);
  });

  it('re-embeds the query with the last observation only when asked', async () => {
    const enc = keywordEncoder();
    const texts: string[] = [];
    const spy = { ...enc, embed: async (t: readonly string[]) => (texts.push(...t), enc.embed(t)) };
    const off = await run({ encoder: spy }, tasks);
    expect(off.turns.map((t) => routing(t).reembedded_with_observation)).toEqual([false, false]);
    expect(texts).toContain(MOVE);
    texts.length = 0;
    const on = await run({ encoder: spy, reembedWithObservation: true }, tasks);
    expect(on.turns.map((t) => routing(t).reembedded_with_observation)).toEqual([false, true]);
    expect(texts.find((t) => t.startsWith(`${MOVE}\nUser: ${SEARCH}`))).toBeDefined();
  });
});

describe('θ calibration', () => {
  const calibration = [
    task('c1', [{ user: 'search tickets assigned to priya', tools: ['tracker/search_issues'] }]),
    task('c2', [{ user: 'post a message to the deploys channel', tools: ['chat/post_message'] }]),
    task('c3', [{ user: 'read the file README at main', tools: ['repo/get_file_contents'] }]),
    task('c4', [{ user: 'what pull requests are open in web', tools: ['repo/list_pull_requests'] }]),
    task('c5', [{ user: 'weather in Lisbon tomorrow', tools: ['tracker/get_weather_forecast'] }]),
    task('c6', [{ user: 'change the topic of channel ops', tools: ['chat/set_channel_topic'] }]),
  ];

  it('picks the θ of maximum F1 (lowest on ties) over every (query, tool) pair, step 0.01', async () => {
    const enc = keywordEncoder();
    const tools = catalog.tools;
    const vectors = new Map<string, Float32Array>();
    const tv = await enc.embed(tools.map((t) => `${t.id}: ${t.summary}`));
    tools.forEach((t, i) => vectors.set(t.id, tv[i]!));
    const cal = await calibrateTheta(enc, tools, vectors, calibration, 'test');
    expect(cal.queries).toBe(6);
    expect(cal.pairs).toBe(6 * tools.length);
    expect(cal.positives).toBe(6);
    expect(cal.points).toHaveLength(101);
    // Brute force, independently of sweepThreshold.
    const qv = await enc.embed(calibration.map((c) => c.turns[0]!.user));
    let best = { theta: -1, f1: -1 };
    for (let i = 0; i <= 100; i++) {
      const theta = i / 100;
      let tp = 0;
      let fp = 0;
      calibration.forEach((c, q) => {
        for (const t of tools) {
          if (Math.fround(dot(qv[q]!, vectors.get(t.id)!)) >= theta) {
            if (c.turns[0]!.tools.includes(t.id)) tp++;
            else fp++;
          }
        }
      });
      const f1 = tp === 0 ? 0 : (2 * tp) / (tp + fp + 6);
      if (f1 > best.f1 + 1e-12) best = { theta, f1 };
    }
    expect(cal.chosen.theta).toBeCloseTo(best.theta, 10);
    expect(cal.chosen.f1).toBeCloseTo(best.f1, 10);
    expect(cal.chosen.f1).toBe(Math.max(...cal.points.map((p) => p.f1)));
    expect(cal.chosen.theta).toBeGreaterThan(0);
    expect(sweepThreshold([{ score: 0.5, relevant: true }]).best.theta).toBe(0); // ties resolve to the lowest θ
  });

  it('the pipeline calibrates θ, writes the sweep to <workDir>/calibration/threshold-<encoder>.json and renders a table', async () => {
    const enc = keywordEncoder();
    const ctx = context(catalog, { calibrationTasks: calibration });
    const pipeline = createToolAttentionPipeline({ encoder: enc });
    await pipeline.prepare!(ctx);
    const settings = pipeline.describe!();
    const file = calibrationPath(ctx.workDir, 'keyword-test');
    expect(existsSync(file)).toBe(true);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as ThresholdCalibration;
    expect(settings.calibration).toEqual(saved);
    expect(settings.retrieval?.theta).toBe(saved.chosen.theta);
    expect(settings.retrieval?.thetaSource).toMatch(/^calibrated/);
    expect(saved.points).toHaveLength(101);
    const table = calibrationTable(saved);
    expect(table.id).toBe('threshold-calibration-keyword-test');
    expect(table.rows.find((r) => r.theta === saved.chosen.theta)?.mark).toMatch(/chosen/);
    expect(join(ctx.workDir, 'calibration')).toBe(join(file, '..'));
  });

  it('without calibration tasks, falls back to θ = 0 and says so', async () => {
    const pipeline = createToolAttentionPipeline({ encoder: keywordEncoder() });
    await pipeline.prepare!(context(catalog));
    expect(pipeline.describe!().retrieval).toMatchObject({ theta: 0, thetaSource: expect.stringMatching(/^uncalibrated/) });
  });
});

describe('bench wiring helpers', () => {
  it('prewarm embeds every tool summary and turn query up front, so the pipelines only hit the cache', async () => {
    const { CachedEncoder } = await import('../../src/embed/cache.ts');
    const { prewarmEmbeddings } = await import('../../src/retrieval/prewarm.ts');
    const inner = keywordEncoder();
    const enc = new CachedEncoder(inner, { dir: makeTempDir('ta-prewarm-') });
    const tasks = [
      task('t', [
        { user: SEARCH, tools: ['tracker/search_issues'] },
        { user: MOVE, tools: ['tracker/transition_issue'] },
      ]),
    ];
    const calibrationTasks = [task('c', [{ user: 'post a message to ops', tools: ['chat/post_message'] }])];
    const report = await prewarmEmbeddings(enc, { catalog, taskSets: [tasks, calibrationTasks] });
    // Tool summaries, the three messages, and the one rolling-context query of the follow-up turn (MOVE + SEARCH).
    expect(report.texts).toBe(catalog.tools.length + 3 + 1);
    const misses = enc.stats().misses;
    const calls = inner.calls;
    await run({ encoder: enc, theta: 'calibrated' }, tasks, catalog, { calibrationTasks });
    expect(enc.stats().misses).toBe(misses);
    expect(inner.calls).toBe(calls);
  });

  it('names encoder, index, k and θ of each retrieval pipeline for the Table 3 notes', async () => {
    const { retrievalNote } = await import('../../src/retrieval/settings-note.ts');
    const note = retrievalNote(
      new Map<string, PipelineSettings>([
        ['b1-full-schema', { details: {} }],
        [
          'b3-simple-retrieval',
          { retrieval: { encoder: 'use-lite', index: 'faiss-flat-ip', k: 10, toolText: 'definition', query: 'user message' }, details: {} },
        ],
        [
          'tool-attention',
          {
            retrieval: {
              encoder: 'use-lite',
              index: 'faiss-flat-ip',
              k: 10,
              theta: 0.5,
              thetaSource: 'calibrated: …',
              toolText: 'summary',
              query: 'user message',
            },
            details: {},
          },
        ],
      ]),
      new Map([['tool-attention', 'Tool Attention']]),
    );
    expect(note).toBe(
      'Retrieval: b3-simple-retrieval: encoder use-lite, index faiss-flat-ip, k = 10, no threshold; Tool Attention: encoder use-lite, index faiss-flat-ip, k = 10, θ = 0.50 (calibrated, max F1 on held-out pairs).',
    );
    expect(retrievalNote(new Map([['b1-full-schema', { details: {} }]]), new Map())).toBeUndefined();
  });
});
