import { makeTempDir } from '../helpers/temp.ts';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_TESTBED, PUBLISHED_TOTAL } from '../../src/reference/published.ts';
import { generateCatalog } from '../../src/catalog/generate.ts';
import { SERVER_SPECS } from '../../src/catalog/servers/index.ts';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import { validateServerSpec } from '../../src/catalog/validate-spec.ts';
import { writeSyntheticCatalog } from '../../src/bench/synthetic-inputs.ts';
import { countTokens } from '../../src/tokens/counter.ts';

function serverMeans(seed: number) {
  const { catalog } = generateCatalog(SERVER_SPECS, seed);
  const tokens = catalog.tools.map((t) => ({ server: t.server, n: countTokens(serializeToolDefinition(t.definition)) }));
  const means = PUBLISHED_TESTBED.map((p) => {
    const xs = tokens.filter((t) => t.server === p.server).map((t) => t.n);
    return { ...p, count: xs.length, mean: xs.reduce((a, b) => a + b, 0) / xs.length };
  });
  return { catalog, means, total: tokens.reduce((s, t) => s + t.n, 0) };
}

describe('synthetic catalog', () => {
  it('authored server specs are sound (names, summaries ≤ 60 tokens, slots, required params)', () => {
    expect(SERVER_SPECS.flatMap(validateServerSpec)).toEqual([]);
  });

  it.each([42, 7])('seed %i: tool counts exact, each server mean within ±3%, total within ±2% of 47,300', (seed) => {
    const { means, total } = serverMeans(seed);
    for (const m of means) {
      expect(m.count, m.server).toBe(m.tools);
      expect(Math.abs(m.mean - m.meanTokens) / m.meanTokens, m.server).toBeLessThanOrEqual(0.03);
    }
    expect(Math.abs(total - PUBLISHED_TOTAL.totalTokens) / PUBLISHED_TOTAL.totalTokens).toBeLessThanOrEqual(0.02);
  });

  it('another seed gives a different catalog', () => {
    const a = generateCatalog(SERVER_SPECS, 42).files;
    const b = generateCatalog(SERVER_SPECS, 43).files;
    expect([...a.values()].join('')).not.toEqual([...b.values()].join(''));
  });

  it('GitHub repeats identical owner and repo definitions in at least 60% of its tools', () => {
    const github = generateCatalog(SERVER_SPECS, 42).catalog.tools.filter((t) => t.server === 'github');
    for (const param of ['owner', 'repo']) {
      const defs = github.map((t) => JSON.stringify((t.definition.inputSchema.properties as Record<string, unknown>)[param] ?? null));
      const counts = new Map<string, number>();
      for (const d of defs) if (d !== 'null') counts.set(d, (counts.get(d) ?? 0) + 1);
      expect(Math.max(...counts.values()) / github.length, param).toBeGreaterThanOrEqual(0.6);
    }
  });

  it('regenerating writes byte-identical files, equal to the committed ones', () => {
    const a = makeTempDir('tooltax-cat-');
    const b = makeTempDir('tooltax-cat-');
    const dirA = writeSyntheticCatalog(a, 42).dir;
    const dirB = writeSyntheticCatalog(b, 42).dir;
    const committed = join(process.cwd(), 'catalogs', 'synthetic-120');
    const files = readdirSync(dirA).sort();
    expect(files).toEqual(readdirSync(dirB).sort());
    expect(files).toEqual(readdirSync(committed).sort());
    for (const f of files) {
      const content = readFileSync(join(dirA, f));
      expect(content.equals(readFileSync(join(dirB, f))), f).toBe(true);
      expect(content.equals(readFileSync(join(committed, f))), `committed ${f} is stale: run npm run bench -- catalog`).toBe(true);
    }
  });
});
