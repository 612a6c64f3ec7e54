import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { realPrimaryDumps } from '../../src/table/suites.ts';
import { ARRAY_ITEMS, instanceOf, resultSourceCounts, toolResult, toolResults } from '../../src/catalog/tool-results.ts';
import { directTranscript } from '../../src/prompt/shared-parts.ts';
import { countTokens } from '../../src/tokens/counter.ts';

const root = process.cwd();
const synthetic = loadCatalog(join(root, 'catalogs', 'synthetic-120'));
const real = loadCatalog(realPrimaryDumps(root));

describe('tool results', () => {
  it('gives the synthetic catalog its authored samples (modelled)', () => {
    const tool = synthetic.tools[0]!;
    const r = toolResult(synthetic, tool.id);
    expect(r.source).toBe('sample');
    expect(r.text).toBe(JSON.stringify(tool.sampleResponse));
  });

  it('measures the real filesystem tools from the captured server results', () => {
    const fs = real.tools.filter((t) => t.server === 'server-filesystem');
    expect(fs.length).toBeGreaterThan(10);
    for (const t of fs) expect(toolResult(real, t.id).source, t.id).toBe('measured');
    expect(toolResult(real, 'server-filesystem/list_allowed_directories').text).toContain('/workspace');
  });

  it('models the others from the outputSchema, else the nearest authored sample', () => {
    const counts = resultSourceCounts(real);
    expect(counts.measured + counts['output-schema'] + counts['nearest-sample']).toBe(real.tools.length);
    expect(counts['output-schema']).toBeGreaterThan(0);
    expect(counts['nearest-sample']).toBeGreaterThan(0);
    const github = real.tools.find((t) => t.server === 'github-mcp-server' && !t.definition.outputSchema)!;
    expect(toolResult(real, github.id).source).toBe('nearest-sample');
    expect(toolResult(real, github.id).text.length).toBeGreaterThan(20);
  });

  it('builds an outputSchema instance with every property and a fixed number of array items', () => {
    const v = instanceOf(
      {
        type: 'object',
        properties: {
          items: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } },
          state: { enum: ['open'] },
        },
      },
      'x',
      0,
    );
    expect(v).toEqual({ items: Array.from({ length: ARRAY_ITEMS }, () => ({ id: 1 })), state: 'open' });
  });

  it('gives the same results on every call, one tool or the whole catalog', () => {
    const all = toolResults(real);
    expect(toolResults(real)).toEqual(all);
    for (const t of real.tools) expect(toolResult(real, t.id)).toEqual(all.get(t.id));
  });

  it('counts a transcript’s results exactly as their share of its tokens', () => {
    const tools = real.tools.filter((t) => t.server === 'server-filesystem').map((t) => t.id);
    const t = directTranscript(real, 0, { user: 'list and read the notes', tools: tools.slice(0, 4) });
    expect(t.results).toHaveLength(4);
    expect(t.measuredResults).toEqual(t.results);
    expect(t.roundTrips).toBe(5);
    let rest = t.section.text;
    for (const r of t.results) {
      expect(rest).toContain(r);
      rest = rest.replace(r, '');
    }
    const pieces = t.results.reduce((n, r) => n + countTokens(r), 0);
    expect(pieces + countTokens(rest)).toBeGreaterThanOrEqual(countTokens(t.section.text) - 4);
    expect(pieces).toBeLessThan(countTokens(t.section.text));
  });
});
