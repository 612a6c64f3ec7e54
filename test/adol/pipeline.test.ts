import $RefParser from '@apidevtools/json-schema-ref-parser';
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/measure/run-pipeline.ts';
import type { Catalog, CatalogTool, McpTool } from '../../src/catalog/types.ts';
import { ADOL_PRESETS, createAdolPipeline, createAdolPreset, NO_MECHANISM, type AdolOptions } from '../../src/pipelines/adol/pipeline.ts';
import type { Pipeline, PipelineContext, PromptSection, TurnResult } from '../../src/pipelines/types.ts';
import { sharedParts, transcriptSection } from '../../src/prompt/shared-parts.ts';
import type { Task } from '../../src/tasks/types.ts';
import { TokenCounter } from '../../src/tokens/counter.ts';
import { hashEncoder } from './helpers.ts';

const tokens = new TokenCounter('cl100k_base');
const owner = { type: 'string', description: 'Repository owner: the user login or organization name that holds the repository' };
const repo = { type: 'string', description: 'Repository name, without the owner prefix and without the .git suffix' };
const perPage = { type: 'number', description: 'Results per page for pagination (min 1, max 100)', minimum: 1, maximum: 100, default: 30 };
const issueOut = {
  type: 'object',
  properties: {
    issues: {
      type: 'array',
      items: {
        type: 'object',
        properties: { number: { type: 'integer' }, title: { type: 'string' }, body: { type: 'string' }, state: { type: 'string' } },
      },
    },
  },
};

function gh(name: string, tags: string[], extra: Record<string, unknown> = {}): CatalogTool {
  const definition: McpTool = {
    name,
    title: name.replace(/_/g, ' '),
    description: `Handles ${name.replace(/_/g, ' ')} in a GitHub repository. Second sentence with details the short list drops.`,
    inputSchema: {
      type: 'object',
      properties: { owner, repo, perPage, [`${name}_only`]: { type: 'string' } },
      required: ['owner', 'repo'],
    },
    outputSchema: issueOut,
    annotations: { readOnlyHint: true },
  };
  return {
    id: `github/${name}`,
    server: 'github',
    name,
    definition,
    summary: name,
    summarySource: 'authored',
    tags,
    preconditions: [],
    sampleResponse: { issues: [{ number: 7, title: 'Crash on save', body: 'SECRET-LONG-BODY text', state: 'open' }] },
    ...extra,
  };
}

const slack: CatalogTool = {
  id: 'slack/post_message',
  server: 'slack',
  name: 'post_message',
  definition: {
    name: 'post_message',
    description: 'Post a message to a Slack channel. Markdown is allowed.',
    inputSchema: { type: 'object', properties: { channel: { type: 'string' }, text: { type: 'string' } }, required: ['channel', 'text'] },
    outputSchema: {
      type: 'object',
      properties: {
        ok: { type: 'boolean' },
        ts: { type: 'string' },
        message: { type: 'object', properties: { text: { type: 'string' } } },
      },
    },
  },
  summary: 'post a message',
  summarySource: 'authored',
  tags: ['slack', 'messaging'],
  preconditions: [],
  sampleResponse: { ok: true, ts: '1712.1', message: { text: 'ECHOED-TEXT' } },
};

const ghNames = [
  'list_issues',
  'search_issues',
  'list_commits',
  'list_branches',
  'list_tags',
  'list_releases',
  'list_forks',
  'list_stargazers',
];
const catalog: Catalog = {
  name: 'mini',
  source: 'test',
  servers: ['github', 'slack'],
  tools: [...ghNames.map((n) => gh(n, n.includes('issue') ? ['issues', 'read'] : ['read'])), slack],
};

const task: Task = {
  id: 't1',
  kind: 'multi',
  turns: [
    { user: 'list the open issues in acme/web', tools: ['github/list_issues'] },
    { user: 'post a slack message to #dev about it', tools: ['slack/post_message'] },
    { user: 'thanks, nothing else', tools: [] },
  ],
  groundTruthTools: ['github/list_issues', 'slack/post_message'],
  initialState: { authScopes: [] },
  flags: { ambiguous: false },
  servers: ['github', 'slack'],
};

// Semantic retrieval ranks with a retriever unless given an encoder: bm25 here. The default
// (`learned`) trains its reranker with use-lite on first use, ~18 s on a cold cache, and is
// tested in test/retrieval/learned.test.ts and end to end by the bench tests.
const ctx: PipelineContext = {
  catalog,
  tokens,
  seed: 42,
  workDir: '/tmp',
  calibrationTasks: [],
  historyTasks: [],
  encoder: hashEncoder(),
  retriever: 'bm25',
};

async function drive(pipeline: Pipeline): Promise<TurnResult[]> {
  await pipeline.prepare?.(ctx);
  pipeline.startTask?.(task);
  const history: PromptSection[] = [];
  const out: TurnResult[] = [];
  for (const [i, turn] of task.turns.entries()) {
    out.push(
      await pipeline.turn({
        task,
        turnIndex: i,
        turn,
        state: { authScopes: new Set(), toolOutputs: [] },
        shared: sharedParts(history, turn.user),
      }),
    );
    history.push(transcriptSection(catalog, i, turn));
  }
  return out;
}

const text = (r: TurnResult, label = 'tool-definitions') =>
  r.prompt.sections
    .filter((s) => s.label === label)
    .map((s) => s.text)
    .join('');
const historyText = (r: TurnResult) =>
  r.prompt.sections
    .filter((s) => s.role === 'history')
    .map((s) => s.text)
    .join('');
const make = (options: Partial<AdolOptions>) => createAdolPipeline('t', 't', { ...NO_MECHANISM, ...options });

describe('ADOL pipeline prompts', () => {
  it('with every switch off it is B1: full definitions, shared history', async () => {
    const [r0, r1] = await drive(make({}));
    expect(text(r0!)).toBe(`Available tools (MCP tools/list):\n${catalog.tools.map((t) => JSON.stringify(t.definition)).join('\n')}\n`);
    expect(historyText(r1!)).toBe(transcriptSection(catalog, 0, task.turns[0]!).text);
  });

  it('short: optional content out; name, first sentence and inputSchema in', async () => {
    const [r0] = await drive(createAdolPreset('adol-short'));
    const t = text(r0!);
    for (const out of ['"outputSchema"', '"annotations"', '"title"', 'Second sentence']) expect(t).not.toContain(out);
    expect(t).toContain('"description":"Handles list issues in a GitHub repository."');
    expect(t).toContain(JSON.stringify(catalog.tools[0]!.definition.inputSchema));
    expect(r0!.exposure.fullSchemaTools).toHaveLength(catalog.tools.length);
  });

  it('$ref internal: the tool list is a self-contained document whose dereference is the catalog', async () => {
    const [r0, r1] = await drive(createAdolPreset('adol-ref-internal'));
    const t = text(r0!);
    expect(t).toContain('{"$defs":{');
    expect(t).toContain('{"$ref":"#/$defs/owner"}');
    const doc = JSON.parse(t.slice(t.indexOf('\n') + 1)) as { tools: McpTool[] };
    const back = (await $RefParser.dereference(doc as never, { dereference: { cloneReferences: true } })) as unknown as {
      tools: McpTool[];
    };
    expect(back.tools).toEqual(catalog.tools.map((x) => x.definition));
    expect(tokens.count(t)).toBeLessThan(tokens.count(text((await drive(make({})))[0]!)));
    expect(r1!.prompt.sections[1]!.stable).toBe(true);
  });

  it('$ref external: templates on the first turn only, pointers every turn', async () => {
    const [r0, r1] = await drive(createAdolPreset('adol-ref-external'));
    expect(text(r0!, 'adol-templates')).toContain('"owner.json":');
    expect(r0!.prompt.sections.find((s) => s.label === 'adol-templates')!.stable).toBe(true);
    expect(text(r1!, 'adol-templates')).toBe('');
    expect(text(r1!)).toContain('{"$ref":"owner.json"}');
    expect(text(r1!)).not.toContain(owner.description);
  });

  it('requireOutput: offer in the schema, trimmed results in the history', async () => {
    const [r0, r1, r2] = await drive(createAdolPreset('adol-require-output'));
    expect(text(r0!)).toContain('"requireOutput":{"description":"A list of output field names');
    expect(text(r0!)).toContain('"enum":["issues","issues.number","issues.title","issues.body","issues.state"]');
    const h1 = historyText(r1!);
    expect(h1).toContain('"requireOutput":["issues.number","issues.title","issues.state"]');
    expect(h1).toContain('Tool result (list_issues): {"issues":[{"number":7,"title":"Crash on save","state":"open"}]}');
    expect(h1).not.toContain('SECRET-LONG-BODY');
    const h2 = historyText(r2!);
    expect(h2).toContain('Tool result (post_message): {"ok":true,"ts":"1712.1"}');
    expect(h2).not.toContain('ECHOED-TEXT');
    // Everything else in the transcript is the shared text.
    expect(h1.split('\n')[0]).toBe('User: list the open issues in acme/web');
  });

  it('tag retrieval: only tools with a tag the query names; per-turn list after the history', async () => {
    const [r0, r1, r2] = await drive(createAdolPreset('adol-retrieval-tags'));
    expect(r0!.exposure.listedTools).toEqual(['github/list_issues', 'github/search_issues']);
    expect(text(r0!)).not.toContain('list_commits');
    expect(r1!.exposure.listedTools).toEqual(['slack/post_message']);
    expect(r2!.exposure.listedTools).toHaveLength(catalog.tools.length); // no tag named → full list
    const roles = r1!.prompt.sections.map((s) => s.role);
    expect(roles.indexOf('tools')).toBe(roles.length - 2);
    expect(r1!.prompt.sections.at(-2)!.stable).toBe(false);
  });

  it("semantic retrieval: top-k by the run's retriever (bm25 here)", async () => {
    const [r0, r1] = await drive(
      createAdolPipeline('s', 's', {
        ...NO_MECHANISM,
        retrieval: 'semantic',
        semantic: { k: 3, weights: { name: 1, description: 2, parameters: 1 } },
      }),
    );
    expect(r0!.exposure.listedTools).toHaveLength(3);
    expect(r0!.exposure.listedTools).toContain('github/list_issues');
    expect(r1!.exposure.listedTools).toContain('slack/post_message');
  });

  it('combined: retrieved, short, offering requireOutput, trimmed history', async () => {
    expect(ADOL_PRESETS['adol-combined'].options).toMatchObject({
      ref: 'internal',
      short: true,
      requireOutput: true,
      retrieval: 'semantic',
    });
    const [r0, r1] = await drive(createAdolPreset('adol-combined'));
    const t = text(r0!);
    expect(t).not.toContain('"outputSchema"');
    expect(t).toContain('requireOutput');
    // k = 10 retrieves all 9 tools of this catalog, but through the per-turn (retrieved) path.
    expect(r0!.exposure.listedTools).toHaveLength(Math.min(10, catalog.tools.length));
    expect(r0!.prompt.sections.find((s) => s.label === 'tool-definitions')!.stable).toBe(false);
    expect(t).toContain('{"$defs":{');
    expect(historyText(r1!)).not.toContain('SECRET-LONG-BODY');
  });

  it('runs under the bench runner and records fewer tool tokens than no mechanism', async () => {
    const measure = async (p: Pipeline) => {
      await p.prepare?.(ctx);
      const recs = await runPipeline(p, [task], { catalog, tokens, seed: 42 });
      return recs.reduce((s, r) => s + r.toolTokens, 0);
    };
    const base = await measure(make({}));
    for (const id of ['adol-ref-internal', 'adol-short', 'adol-retrieval-tags'] as const)
      expect(await measure(createAdolPreset(id))).toBeLessThan(base);
    expect(await measure(createAdolPreset('adol-require-output'))).toBeGreaterThan(base);
  });
});
