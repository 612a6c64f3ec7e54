import $RefParser from '@apidevtools/json-schema-ref-parser';
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import type { JsonSchema, McpTool } from '../../src/catalog/types.ts';
import {
  B1_HEADING,
  countByLine,
  dedupeTools,
  dereferenceDedup,
  DEFAULT_DEDUP_CONFIG,
  INTERNAL_HEADING,
  renderExternalList,
  renderInternal,
  renderPlain,
  renderTemplates,
  templateFiles,
} from '../../src/pipelines/adol/dedup.ts';
import { TokenCounter } from '../../src/tokens/counter.ts';

const tokens = new TokenCounter('cl100k_base');
const owner = { type: 'string', description: 'Repository owner (user login or organization name)' };
const repo = { type: 'string', description: 'Repository name, without the owner prefix' };
const state = { type: 'string', description: 'Filter by state', enum: ['open', 'closed', 'all'], default: 'open' };

/** A tool with its own `id_<name>` parameter, so no two input schemas are identical as a whole. */
function tool(name: string, properties: Record<string, unknown>, extra: Partial<McpTool> = {}): McpTool {
  return {
    name,
    description: `Does ${name}.`,
    inputSchema: { type: 'object', properties: { ...properties, [`id_${name}`]: { type: 'integer' } }, required: ['owner', 'repo'] },
    ...extra,
  };
}

// Eight tools: with fewer, the document framing and longer heading cost more than the
// pointers save (measured: 4 such tools → nothing hoisted).
const mini: McpTool[] = [
  tool('list_issues', { owner, repo, state }),
  tool('list_pulls', { owner, repo, state }),
  tool('list_releases', { owner, repo, state }),
  tool('get_repo', { owner, repo }),
  tool('list_branches', { owner, repo }),
  tool('list_tags', { owner, repo }),
  tool('list_commits', { owner, repo }),
  tool('fork_repo', { owner, repo }),
];

const renderInternalOrList = (r: ReturnType<typeof dedupeTools>) => (r.variant === 'internal' ? renderInternal(r) : renderExternalList(r));

describe('ADOL $ref dedup', () => {
  it('hoists repeated definitions into $defs and dereferences back to the original (ref-parser)', async () => {
    const result = dedupeTools(mini, 'internal', tokens);
    expect(result.defs.map((d) => d.name)).toEqual(expect.arrayContaining(['owner', 'repo']));
    expect(result.defs.every((d) => d.uses >= 2 && d.deltaTokens < 0)).toBe(true);
    expect(JSON.stringify(result.tools[0])).toContain('{"$ref":"#/$defs/owner"}');
    expect(await dereferenceDedup(result)).toEqual(mini);
    // The input is not modified.
    expect(mini[0]!.inputSchema.properties).toEqual({ owner, repo, state, id_list_issues: { type: 'integer' } });
  });

  it('renders a self-contained tools/list document: the prompt text itself dereferences to the tools', async () => {
    const result = dedupeTools(mini, 'internal', tokens);
    const text = renderInternal(result);
    expect(text.startsWith(`${INTERNAL_HEADING}\n{"$defs":{`)).toBe(true);
    const doc = JSON.parse(text.slice(text.indexOf('\n') + 1)) as { tools: McpTool[] };
    const out = (await $RefParser.dereference(doc as never, { dereference: { cloneReferences: true } })) as unknown as { tools: McpTool[] };
    expect(out.tools).toEqual(mini);
    expect(tokens.count(text)).toBeLessThan(tokens.count(renderPlain(mini)));
  });

  it('counts a rendered section exactly line by line (clean seams)', () => {
    for (const variant of ['internal', 'external'] as const) {
      const r = dedupeTools(mini, variant, tokens);
      for (const text of [renderInternalOrList(r), renderTemplates(r), renderPlain(mini)])
        if (text) expect(countByLine(text, tokens)).toBe(tokens.count(text));
    }
  });

  it('external variant: relative template files, resolved through a ref-parser resolver', async () => {
    const result = dedupeTools(mini, 'external', tokens);
    expect(result.defs.length).toBeGreaterThan(0);
    expect(JSON.stringify(result.tools[0])).toContain('{"$ref":"owner.json"}');
    expect([...templateFiles(result).keys()]).toContain('owner.json');
    expect(renderTemplates(result)).toContain('"owner.json":{"type":"string"');
    expect(await dereferenceDedup(result)).toEqual(mini);
    expect(tokens.count(renderExternalList(result)) + tokens.count(renderTemplates(result))).toBeLessThan(tokens.count(renderPlain(mini)));
  });

  it('hoists only where it saves tokens: short repeated values stay inline; nothing repeated → B1 text', () => {
    const tiny = [
      { name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
      { name: 'b', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
    ] as McpTool[];
    const r = dedupeTools(tiny, 'internal', tokens);
    expect(r.defs).toEqual([]);
    expect(renderInternal(r)).toBe(renderPlain(tiny, B1_HEADING));
    const distinct = [tool('one', { owner }), tool('two', { repo })];
    expect(dedupeTools(distinct, 'internal', tokens).defs.filter((d) => d.kind === 'property')).toEqual([]);
  });

  it('can hoist long required and enum lists (JSON Reference placement) and switch them off', async () => {
    const long = Array.from({ length: 12 }, (_, i) => `option_value_number_${i}`);
    // A required list pays off only when it is long: a pointer costs ~9 tokens in place.
    const req = [
      'alpha_parameter',
      'beta_parameter',
      'gamma_parameter',
      'delta_parameter',
      'epsilon_parameter',
      'zeta_parameter',
      'eta_parameter',
      'theta_parameter',
    ];
    const tools = ['a', 'b', 'c', 'd'].map(
      (n, i) =>
        ({
          name: n,
          inputSchema: {
            type: 'object',
            properties: {
              [`p${i}`]: { type: 'string', description: `Option ${i}`, enum: long },
              ...Object.fromEntries(req.map((r) => [r, { type: 'integer', minimum: i }])),
            },
            required: req,
          },
        }) as McpTool,
    );
    const r = dedupeTools(tools, 'internal', tokens);
    expect(r.defs.map((d) => d.kind).sort()).toEqual(['enum', 'required']);
    expect(await dereferenceDedup(r)).toEqual(tools);
    const off = dedupeTools(tools, 'internal', tokens, {
      ...DEFAULT_DEDUP_CONFIG,
      kinds: { ...DEFAULT_DEDUP_CONFIG.kinds, required: false, enum: false },
    });
    expect(off.defs).toEqual([]);
  });

  it('round-trips real-sized tools (first 15 of the synthetic GitHub server) losslessly, both variants, and saves tokens', async () => {
    const catalog = loadCatalog(join(import.meta.dirname, '../../catalogs/synthetic-120/github.json'));
    const defs = catalog.tools.slice(0, 15).map((t) => t.definition);
    for (const variant of ['internal', 'external'] as const) {
      const r = dedupeTools(defs, variant, tokens);
      expect(r.defs.length).toBeGreaterThan(3);
      expect(await dereferenceDedup(r)).toEqual(defs);
      const after =
        variant === 'internal' ? tokens.count(renderInternal(r)) : tokens.count(renderExternalList(r)) + tokens.count(renderTemplates(r));
      expect(after).toBeLessThan(tokens.count(renderPlain(defs)));
    }
  });

  it('property: any tool list with random repetition dereferences to a deep-equal list and never costs more', async () => {
    const names = [
      'owner',
      'repo',
      'page',
      'perPage',
      'state',
      'items',
      'required',
      'enum',
      'type',
      'constructor',
      'a.b',
      'x y',
      'ünï',
      '~0/1',
    ];
    const descriptions = [
      'Repository owner',
      'Results per page for pagination (min 1, max 100)',
      'A fairly long description of a parameter that is shared by several tools on the server',
      '',
    ];
    const leaf = fc.record(
      {
        type: fc.constantFrom('string', 'integer', 'boolean', 'number'),
        description: fc.constantFrom(...descriptions),
        minimum: fc.integer({ min: 0, max: 3 }),
      },
      { requiredKeys: ['type'] },
    );
    const enumLeaf = fc.record({
      type: fc.constant('string'),
      enum: fc.uniqueArray(fc.constantFrom('open', 'closed', 'all', 'merged', 'asc', 'desc', 'created', 'updated'), {
        minLength: 1,
        maxLength: 8,
      }),
    });
    const { schema } = fc.letrec<{ schema: JsonSchema }>((tie) => ({
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        enumLeaf,
        fc.record({
          type: fc.constant('object'),
          description: fc.constantFrom(...descriptions),
          properties: fc.dictionary(fc.constantFrom(...names), tie('schema'), { maxKeys: 3 }),
        }),
        fc.record({ type: fc.constant('array'), items: tie('schema') }),
      ) as fc.Arbitrary<JsonSchema>,
    }));
    const toolsArb = fc.array(schema, { minLength: 1, maxLength: 5 }).chain((pool) => {
      const pick = fc.nat({ max: pool.length - 1 }).map((i) => pool[i]!);
      const required = fc.constantFrom(undefined, ['owner', 'repo'], ['owner', 'repo', 'page'], ['state']);
      return fc.array(
        fc.record({
          props: fc.array(fc.tuple(fc.constantFrom(...names), pick), { maxLength: 6 }),
          required,
          output: fc.option(pick, { nil: undefined }),
        }),
        { minLength: 1, maxLength: 8 },
      );
    });
    let hoisted = 0;
    await fc.assert(
      fc.asyncProperty(toolsArb, fc.constantFrom('internal' as const, 'external' as const), async (specs, variant) => {
        const tools: McpTool[] = specs.map((s, i) => {
          const inputSchema: JsonSchema = { type: 'object', properties: Object.fromEntries(s.props) };
          if (s.required) inputSchema.required = s.required;
          const t: McpTool = { name: `tool_${i}`, inputSchema };
          if (s.output) t.outputSchema = s.output;
          return t;
        });
        const snapshot = JSON.stringify(tools);
        const r = dedupeTools(tools, variant, tokens);
        if (r.defs.length) hoisted++;
        expect(JSON.stringify(tools)).toBe(snapshot);
        expect(await dereferenceDedup(r)).toEqual(tools);
        const plain = tokens.count(renderPlain(tools));
        const after =
          variant === 'internal' ? tokens.count(renderInternal(r)) : tokens.count(renderExternalList(r)) + tokens.count(renderTemplates(r));
        expect(after).toBeLessThanOrEqual(plain);
        expect(dedupeTools(tools, variant, tokens)).toEqual(r);
      }),
      { numRuns: 80, seed: 42 },
    );
    // The generator must exercise hoisting, not only the "nothing pays off" path.
    expect(hoisted).toBeGreaterThan(15);
  });
});
