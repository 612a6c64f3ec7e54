import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_SPECS } from '../../src/catalog/servers/index.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import type { McpTool } from '../../src/catalog/types.ts';
import { anthropicTool } from '../../src/hosts/anthropic.ts';
import { HostComparison, HostMeasure, runHostMeasures } from '../../src/hosts/measure.ts';
import { hostProfile } from '../../src/hosts/registry.ts';
import { driveTurns, runPipeline } from '../../src/measure/run-pipeline.ts';
import { measureTurn } from '../../src/measure/turn-metrics.ts';
import { createAdolPreset } from '../../src/pipelines/adol/pipeline.ts';
import { createFullSchemaPipeline } from '../../src/pipelines/b1-full-schema/pipeline.ts';
import { createSimpleRetrievalPipeline } from '../../src/pipelines/b3-simple-retrieval/pipeline.ts';
import { createCliLazyPipeline } from '../../src/pipelines/b4-cli-lazy/pipeline.ts';
import { createToolAttentionPipeline } from '../../src/pipelines/tool-attention/pipeline.ts';
import type { Pipeline, PipelineContext, TurnResult } from '../../src/pipelines/types.ts';
import { TaskGenerator } from '../../src/tasks/generate.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';

// Measurement under a host stays pipeline-agnostic: it renders the sections marked as the tool
// list and counts everything else as text. Checked here against an independent recomputation
// from the sections, on the prompts the real pipelines return.

const catalog = loadCatalog('catalogs/synthetic-120');
const generator = new TaskGenerator(SERVER_SPECS);
const all = generator.generate(42);
const tasks = [...all.filter((t) => t.kind === 'multi').slice(0, 6), ...all.filter((t) => t.kind === 'single').slice(0, 6)];
const tokens = tokenCounter('cl100k_base');
// Tool Attention writes its θ calibration there.
const workDir = mkdtempSync(join(tmpdir(), 'tooltax-host-measure-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));
const ctx: PipelineContext = {
  catalog,
  tokens,
  seed: 42,
  workDir,
  retriever: 'bm25',
  calibrationTasks: generator.generateCalibration(42, all),
  historyTasks: generator.generate(42, 'history'),
};

const PIPELINES: [string, () => Pipeline][] = [
  ['B1', createFullSchemaPipeline],
  ['B3', () => createSimpleRetrievalPipeline({ retriever: 'bm25' })],
  ['B4', () => createCliLazyPipeline()],
  ['Tool Attention', () => createToolAttentionPipeline({ retriever: 'bm25' })],
  ['ADOL $ref internal', () => createAdolPreset('adol-ref-internal')],
  ['ADOL short', () => createAdolPreset('adol-short')],
];

async function turnsOf(make: () => Pipeline): Promise<TurnResult[]> {
  const p = make();
  await p.prepare?.(ctx);
  const out: TurnResult[] = [];
  await driveTurns(p, tasks, catalog, ({ result }) => out.push(result));
  return out;
}

/** Anthropic's tool tokens of a prompt, recomputed by hand from its sections. */
function anthropicByHand(r: TurnResult): number {
  let n = 0;
  const defs: McpTool[] = [];
  for (const s of r.prompt.sections.filter((x) => x.role === 'tools')) {
    if (s.toolList) defs.push(...s.toolList);
    else n += tokens.count(s.text);
  }
  return n + defs.reduce((sum, d) => sum + tokens.count(JSON.stringify(anthropicTool(d))), 0) + (defs.length ? 496 : 0);
}

describe('host measurement on real prompts', () => {
  const { host: mcpJson, compare } = runHostMeasures({ id: 'mcp-json', tokenizer: 'cl100k_base' });

  it.each(PIPELINES)('%s: mcp-json is the prompt text, and every other profile renders only the tool list', async (_, make) => {
    const results = await turnsOf(make);
    expect(results.length).toBeGreaterThan(10);
    for (const r of results) {
      const plain = measureTurn(r, [], tokens);
      const m = measureTurn(r, [], tokens, { host: mcpJson, compare });
      expect(m.toolTokens).toBe(plain.toolTokens);
      expect(m.promptTokens).toBe(plain.promptTokens);
      expect(m.toolTokensByHost['mcp-json']).toBe(plain.toolTokens);
      expect(m.toolTokensByHost.anthropic).toBe(anthropicByHand(r));
      for (const h of compare.hosts) expect(m.toolTokensByHost[h.id]).toBe(h.toolPartTokens(r.prompt.sections));
    }
  });

  it('B4 carries no tool definition: no host adds request tokens, its CLI text is counted in each tokenizer', async () => {
    const results = await turnsOf(() => createCliLazyPipeline());
    const o200k = tokenCounter('o200k_base');
    for (const r of results) {
      const m = measureTurn(r, [], tokens, { compare });
      const cli = r.prompt.sections.filter((s) => s.role === 'tools');
      expect(cli.every((s) => !s.toolList)).toBe(true);
      expect(m.toolTokensByHost['openai-chat']).toBe(cli.reduce((n, s) => n + o200k.count(s.text), 0));
      expect(m.toolTokensByHost.anthropic).toBe(m.toolTokens);
    }
  });

  it('ADOL $ref saves nothing under a provider (its tools go whole), ADOL short saves less there than as tools/list JSON', async () => {
    const [b1, ref, short] = await Promise.all([turnsOf(createFullSchemaPipeline), turnsOf(PIPELINES[4]![1]), turnsOf(PIPELINES[5]![1])]);
    const mean = (rs: TurnResult[], host: string) =>
      rs.reduce((n, r) => n + measureTurn(r, [], tokens, { compare }).toolTokensByHost[host]!, 0) / rs.length;
    expect(mean(ref, 'anthropic')).toBe(mean(b1, 'anthropic'));
    expect(mean(ref, 'mcp-json')).toBeLessThan(mean(b1, 'mcp-json'));
    const saved = (host: string) => 1 - mean(short, host) / mean(b1, host);
    expect(saved('anthropic')).toBeGreaterThan(0);
    expect(saved('anthropic')).toBeLessThan(saved('mcp-json'));
  });

  it('the run’s host sets every figure of a turn, its request tokens on the first tool-list section', async () => {
    const results = await turnsOf(() => createToolAttentionPipeline({ retriever: 'bm25' }));
    const host = new HostMeasure(hostProfile({ id: 'openai-chat', tokenizer: 'cl100k_base' }));
    const o200k = host.tokens;
    expect(() => measureTurn(results[0]!, [], tokens, { host })).toThrow(/another counter/);
    let withTools = 0;
    for (const r of results) {
      const m = measureTurn(r, [], o200k, { host, compare: new HostComparison([host]) });
      const counts = r.prompt.sections.map((s) => host.sectionTokens(s));
      const listed = r.prompt.sections.some((s) => s.toolList?.length);
      if (listed) withTools++;
      expect(m.promptTokens).toBe(counts.reduce((a, b) => a + b, 0) + (listed ? 12 : 0));
      expect(m.toolTokens).toBe(host.toolPartTokens(r.prompt.sections));
      expect(m.toolTokensByHost['openai-chat']).toBe(m.toolTokens);
      expect(m.systemTokens).toBe(o200k.count(r.prompt.sections[0]!.text));
    }
    expect(withTools).toBeGreaterThan(0);
  });

  it('runPipeline records every compared host on each turn', async () => {
    const p = createFullSchemaPipeline();
    await p.prepare!(ctx);
    const records = await runPipeline(p, tasks.slice(0, 2), { catalog, tokens, seed: 42, host: mcpJson, compare });
    expect(Object.keys(records[0]!.toolTokensByHost)).toEqual(['mcp-json', 'openai-chat', 'openai-responses', 'anthropic']);
    const anthropic = new HostMeasure(hostProfile({ id: 'anthropic', tokenizer: 'cl100k_base' }));
    expect(records[0]!.toolTokensByHost.anthropic).toBe(anthropic.listTokens(catalog.tools.map((t) => t.definition)));
    expect(records[0]!.toolTokensByHost['openai-chat']).toBeLessThan(records[0]!.toolTokens);
  });
});
