import { describe, expect, it } from 'vitest';
import { commonCalibrationFactor, SERVER_TOLERANCE } from '../../src/catalog/calibrate.ts';
import { generateCatalog } from '../../src/catalog/generate.ts';
import { SERVER_SPECS } from '../../src/catalog/servers/index.ts';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import { crossing, scalingTasks } from '../../src/studies/scaling/study.ts';
import { scaledCatalog } from '../../src/studies/scaling/scaled-catalog.ts';
import { TaskGenerator } from '../../src/tasks/generate.ts';
import { countTokens } from '../../src/tokens/counter.ts';

const tokensOf = (def: Parameters<typeof serializeToolDefinition>[0]) => countTokens(serializeToolDefinition(def));

describe('scaled catalogs', () => {
  const base = generateCatalog(SERVER_SPECS, 42).catalog;
  const required = ['github/list_pull_requests', 'jira/get_issue', 'slack/post_message', 'web/fetch_url', 'database/run_query'];

  it.each([30, 60, 120, 250, 500, 1000])('N=%i: exactly N tools, distinct ids', (n) => {
    const { catalog } = scaledCatalog(SERVER_SPECS, n, { seed: 42, required });
    expect(catalog.tools).toHaveLength(n);
    expect(new Set(catalog.tools.map((t) => t.id)).size).toBe(n);
    expect(new Set(catalog.servers)).toEqual(new Set(catalog.tools.map((t) => t.server)));
    for (const id of required)
      expect(
        catalog.tools.some((t) => t.id === id),
        id,
      ).toBe(true);
  });

  it('N=120 is the testbed catalog itself', () => {
    const { catalog } = scaledCatalog(SERVER_SPECS, 120, { seed: 42 });
    expect(catalog.tools.map((t) => t.id)).toEqual(base.tools.map((t) => t.id));
    expect(catalog.tools.map((t) => serializeToolDefinition(t.definition))).toEqual(
      base.tools.map((t) => serializeToolDefinition(t.definition)),
    );
  });

  it('N < 120 is a subset of the testbed with its calibrated definitions unchanged', () => {
    const { catalog, method } = scaledCatalog(SERVER_SPECS, 60, { seed: 42, required });
    expect(method).toBe('subset');
    const byId = new Map(base.tools.map((t) => [t.id, t]));
    for (const t of catalog.tools) expect(t.definition).toEqual(byId.get(t.id)!.definition);
  });

  it('N > 120: replicated instances keep names and summaries, distinct server ids, each full instance calibrated to its target mean', () => {
    const { catalog, instances, method } = scaledCatalog(SERVER_SPECS, 1000, { seed: 42 });
    expect(method).toBe('replicate');
    expect(instances.slice(6, 12).map((i) => i.server)).toEqual(SERVER_SPECS.map((s) => `${s.server}-2`));
    const factor = commonCalibrationFactor(SERVER_SPECS);
    for (const inst of instances.filter((i) => i.full)) {
      const spec = SERVER_SPECS.find((s) => s.server === inst.spec)!;
      const tools = catalog.tools.filter((t) => t.server === inst.server);
      expect(tools.map((t) => t.name)).toEqual(spec.tools.map((t) => t.name));
      expect(tools.map((t) => t.summary)).toEqual(spec.tools.map((t) => t.summary));
      const mean = tools.reduce((s, t) => s + tokensOf(t.definition), 0) / tools.length;
      const target = spec.targetTokensPerTool * factor;
      expect(Math.abs(mean - target) / target, inst.server).toBeLessThanOrEqual(SERVER_TOLERANCE);
    }
    // At most one partial instance, the last one.
    expect(instances.filter((i) => !i.full).length).toBeLessThanOrEqual(1);
    if (instances.some((i) => !i.full)) expect(instances.at(-1)!.full).toBe(false);
    const overall = catalog.tools.reduce((s, t) => s + tokensOf(t.definition), 0) / catalog.tools.length;
    const baseMean = base.tools.reduce((s, t) => s + tokensOf(t.definition), 0) / base.tools.length;
    expect(Math.abs(overall - baseMean) / baseMean).toBeLessThan(0.03);
  });

  it('is deterministic, and another seed samples differently', () => {
    const a = scaledCatalog(SERVER_SPECS, 250, { seed: 42 }).catalog.tools.map((t) => t.id);
    const b = scaledCatalog(SERVER_SPECS, 250, { seed: 42 }).catalog.tools.map((t) => t.id);
    expect(a).toEqual(b);
    const c = scaledCatalog(SERVER_SPECS, 45, { seed: 42 }).catalog.tools.map((t) => t.id);
    const d = scaledCatalog(SERVER_SPECS, 45, { seed: 7 }).catalog.tools.map((t) => t.id);
    expect(c).not.toEqual(d);
  });

  it('rejects required tools that cannot fit', () => {
    expect(() => scaledCatalog(SERVER_SPECS, 3, { seed: 42, required })).toThrow(/do not fit/);
  });
});

describe('scaling helpers', () => {
  it('picks long tasks whose first 30 turns fit the smallest N, cut to 30 turns', () => {
    const tasks = new TaskGenerator(SERVER_SPECS).generate(42);
    const chosen = scalingTasks(tasks, 30, 30, 4);
    expect(chosen.length).toBeGreaterThan(0);
    for (const t of chosen) {
      expect(t.kind).toBe('long');
      expect(t.turns).toHaveLength(30);
    }
    expect(new Set(chosen.flatMap((t) => t.groundTruthTools)).size).toBeLessThanOrEqual(30);
  });

  it('interpolates the rho = 0.3 crossing in log N', () => {
    const c = crossing(
      [
        { n: 30, rho: 0.4 },
        { n: 60, rho: 0.2 },
        { n: 120, rho: 0.1 },
      ],
      0.3,
    );
    expect(c).not.toBe('below-at-start');
    expect(c && c !== 'below-at-start' ? c.between : undefined).toEqual([30, 60]);
    expect(c && c !== 'below-at-start' ? Math.round(c.n) : 0).toBe(Math.round(Math.sqrt(30 * 60)));
    expect(
      crossing(
        [
          { n: 30, rho: 0.9 },
          { n: 60, rho: 0.8 },
        ],
        0.3,
      ),
    ).toBeUndefined();
    expect(crossing([{ n: 30, rho: 0.2 }], 0.3)).toBe('below-at-start');
  });
});
