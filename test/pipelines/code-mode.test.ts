import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { toolResult, toolResults } from '../../src/catalog/tool-results.ts';
import { runPipeline } from '../../src/measure/run-pipeline.ts';
import { codeTranscript } from '../../src/pipelines/code-mode/code.ts';
import { CODE_MODE_STYLE } from '../../src/pipelines/code-mode/pipeline.ts';
import { CodeModeDescriptions, codeModeTool, wrapperFile } from '../../src/pipelines/code-mode/render.ts';
import { MAX_EXAMPLES, withExamples } from '../../src/pipelines/tool-examples/pipeline.ts';
import { PIPELINES } from '../../src/pipelines/registry.ts';
import { directTranscript } from '../../src/prompt/shared-parts.ts';
import { loadTasks } from '../../src/tasks/load.ts';
import { TokenCounter } from '../../src/tokens/counter.ts';
import { runInSandbox } from '../../src/live/sandbox.ts';
import { Rng } from '../../src/util/rng.ts';

const catalog = loadCatalog(join(process.cwd(), 'catalogs', 'synthetic-120'));
const tokens = new TokenCounter('cl100k_base');
const CODE_IDS = [
  'code-mode',
  'code-mode-files',
  'code-mode-files-search',
  'search-execute',
  'programmatic-calls',
  'tool-examples',
  'tool-attention+code',
];

describe('Code Mode rendering', () => {
  it('is the library’s own, matching its published example', () => {
    // The README of @cloudflare/codemode: getWeather with a required city gives
    // `type GetWeatherInput = { city: string }` and `declare const codemode: { getWeather: (input: GetWeatherInput) => Promise<...>; }`.
    const tool = codeModeTool([
      {
        id: 'x/getWeather',
        server: '',
        name: 'getWeather',
        summary: '',
        summarySource: 'derived',
        tags: [],
        preconditions: [],
        definition: {
          name: 'getWeather',
          description: 'Get weather for a city',
          inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
        },
      },
    ]);
    const d = tool.description!.replace(/\s+/g, ' ');
    expect(tool.name).toBe('codemode');
    expect(d).toContain('type GetWeatherInput = { /** City name */ city: string; }');
    expect(d).toContain(
      'declare const codemode: { /** * Get weather for a city * @param input.city - City name */ getWeather: (input: GetWeatherInput) => Promise<GetWeatherOutput>; }',
    );
  });

  it('composes a set of tools from one-tool renderings exactly as the library renders the set', () => {
    const real = loadCatalog(
      ['filesystem', 'firecrawl', 'github', 'jira', 'slack'].map((f) => join(process.cwd(), 'catalogs', 'real', `${f}.json`)),
    );
    const hostile = {
      ...catalog.tools[0]!,
      id: 'x/hostile',
      name: 'hostile',
      definition: {
        name: 'hostile',
        description: 'Costs $& and $1;\n\ndeclare const codemode: { fake: 1 }\n\nWrite an async arrow function',
        inputSchema: { type: 'object', properties: { q: { type: 'string', description: '}$` */' } } },
      },
    };
    const random = new Rng(42, 'code-mode-sets');
    const rng = () => random.next();
    for (const tools of [catalog.tools, real.tools]) {
      const descriptions = new CodeModeDescriptions();
      for (let n = 0; n < 40; n++) {
        const set = Array.from({ length: 1 + Math.floor(rng() * 8) }, () => tools[Math.floor(rng() * tools.length)]!);
        if (n % 10 === 0) set.splice(Math.floor(rng() * set.length), 0, hostile);
        expect(descriptions.of(set)).toBe(codeModeTool(set).description);
      }
    }
  });

  it('writes a wrapper file per tool with its types and a callMCPTool body', () => {
    const f = wrapperFile(catalog.tools[0]!);
    expect(f).toContain(`// servers/${catalog.tools[0]!.server}/${catalog.tools[0]!.name}.ts`);
    expect(f).toContain('callMCPTool<');
    expect(f).toMatch(/type \w+Input = \{/);
  });
});

describe('code transcripts', () => {
  it('keep what the code printed, not every result', () => {
    const chain = catalog.tools.slice(0, 3).map((t) => t.id);
    const turn = { user: 'do three things', tools: chain };
    const direct = directTranscript(catalog, 0, turn);
    const code = codeTranscript(catalog, toolResults(catalog), 0, turn, CODE_MODE_STYLE);
    expect(code.results).toHaveLength(1);
    expect(code.results[0]).toContain(toolResult(catalog, chain[2]!).text);
    expect(code.code[0]).toMatch(/^async \(\) => \{\n {2}const r1 = await codemode\./);
    expect(code.roundTrips).toBe(2);
    expect(direct.roundTrips).toBe(4);
    const sum = (xs: readonly string[]) => xs.reduce((n, x) => n + tokens.count(x), 0);
    expect(sum(code.results)).toBeLessThan(sum(direct.results));
  });

  it('the modelled code runs in the sandbox and prints what the transcript shows', async () => {
    const tool = catalog.tools.find((t) => t.server === 'github' && t.name === 'list_pull_requests')!;
    const t = codeTranscript(catalog, toolResults(catalog), 0, { user: 'list the open pull requests', tools: [tool.id] }, CODE_MODE_STYLE);
    const value = toolResult(catalog, tool.id).value;
    const code = t.code[0]!.trim();
    const out = await runInSandbox(code, new Map([[code.match(/codemode\.(\w+)/)![1]!, () => value]]));
    expect(out.ok).toBe(true);
    if (out.ok) expect(t.results[0]).toContain(JSON.stringify(out.result));
  });
});

describe('tool use examples', () => {
  it('adds 1 to 5 examples per tool, the first the required arguments', () => {
    for (const t of catalog.tools) {
      const d = withExamples(t.definition);
      const ex = d.input_examples as Record<string, unknown>[];
      expect(ex.length).toBeGreaterThanOrEqual(1);
      expect(ex.length).toBeLessThanOrEqual(MAX_EXAMPLES);
      expect(Object.keys(ex[0]!).sort()).toEqual([...((t.definition.inputSchema.required as string[] | undefined) ?? [])].sort());
    }
  });
});

describe('the code pipelines in the bench', () => {
  it('run through the bench and count results, code and round trips', async () => {
    const tasks = loadTasks(join(process.cwd(), 'tasks', 'tasks.jsonl'), catalog)
      .filter((t) => t.turns.some((u) => u.tools.length > 1))
      .slice(0, 8);
    const b1 = PIPELINES.find((e) => e.id === 'b1-full-schema')!.create();
    await b1.prepare?.({ catalog, tokens, seed: 42, workDir: '/tmp', calibrationTasks: [], historyTasks: [] });
    const base = await runPipeline(b1, tasks, { catalog, tokens, seed: 42 });
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (const id of CODE_IDS.filter((i) => i !== 'tool-attention+code')) {
      const p = PIPELINES.find((e) => e.id === id)!.create();
      await p.prepare?.({ catalog, tokens, seed: 42, workDir: '/tmp', calibrationTasks: [], historyTasks: [] });
      const recs = await runPipeline(p, tasks, { catalog, tokens, seed: 42 });
      expect(recs.length, id).toBe(base.length);
      if (id === 'tool-examples') {
        expect(mean(recs.map((r) => r.toolTokens))).toBeGreaterThan(mean(base.map((r) => r.toolTokens)));
        expect(recs.map((r) => r.resultTokens)).toEqual(base.map((r) => r.resultTokens));
      } else {
        expect(mean(recs.map((r) => r.resultTokens)), id).toBeLessThan(mean(base.map((r) => r.resultTokens)));
        expect(mean(recs.map((r) => r.codeTokens)), id).toBeGreaterThan(0);
      }
    }
  });

  it('every code pipeline is registered in the main group', () => {
    for (const id of CODE_IDS) expect(PIPELINES.find((e) => e.id === id)?.group, id).toBe('main');
  });
});
