import { describe, expect, it } from 'vitest';
import { commonCalibrationFactor, SERVER_TOLERANCE } from '../../src/catalog/calibrate.ts';
import { SYNTHETIC_CATALOG_NAME } from '../../src/catalog/generate.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { SERVER_SPECS } from '../../src/catalog/servers/index.ts';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import { renderToolDefinitions, renderToolSummaries } from '../../src/prompt/render-tools.ts';
import { section } from '../../src/prompt/sections.ts';
import { countTokens } from '../../src/tokens/counter.ts';
import { PayloadDetector } from '../../src/studies/adversarial/study.ts';
import { POISONED_SPECS, poisonCatalog, poisonedTools } from '../../src/studies/adversarial/poisoned-tools.ts';

describe('poisoned tool set', () => {
  const base = { ...loadCatalog('catalogs/synthetic-120'), name: SYNTHETIC_CATALOG_NAME };

  it('has 50 tools with distinct ids, each attached to a real server without name clashes', () => {
    const tools = poisonedTools();
    expect(tools).toHaveLength(50);
    expect(new Set(tools.map((t) => t.id)).size).toBe(50);
    for (const t of tools) {
      const spec = SERVER_SPECS.find((s) => s.server === t.spec.server);
      expect(spec, t.id).toBeDefined();
      expect(
        spec!.tools.some((x) => x.name === t.spec.name),
        t.id,
      ).toBe(false);
    }
    expect(new Set(POISONED_SPECS.map((s) => s.style)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(POISONED_SPECS.map((s) => s.placement))).toEqual(new Set(['description-end', 'description-start', 'param']));
  });

  it('puts each payload in the definition (description or a parameter), never in the summary', () => {
    for (const { tool, spec } of poisonedTools()) {
      const json = serializeToolDefinition(tool.definition);
      expect(json.includes(JSON.stringify(spec.payload).slice(1, -1)), tool.id).toBe(true);
      expect(tool.summary.includes(spec.payload.slice(0, 20)), tool.id).toBe(false);
      expect(tool.preconditions).toEqual([]);
      if (spec.placement === 'param') expect(tool.definition.description!.startsWith(spec.cover)).toBe(true);
      if (spec.placement === 'description-start') expect(tool.definition.description!.startsWith(spec.payload)).toBe(true);
    }
  });

  it("is padded like the testbed: each server's poisoned tools average that server's calibrated mean (±3%)", () => {
    const factor = commonCalibrationFactor(SERVER_SPECS);
    const tools = poisonedTools();
    for (const server of SERVER_SPECS) {
      const xs = tools.filter((t) => t.spec.server === server.server).map((t) => countTokens(serializeToolDefinition(t.tool.definition)));
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const target = server.targetTokensPerTool * factor;
      expect(Math.abs(mean - target) / target, server.server).toBeLessThanOrEqual(SERVER_TOLERANCE);
    }
    expect(poisonedTools().map((t) => serializeToolDefinition(t.tool.definition))).toEqual(
      tools.map((t) => serializeToolDefinition(t.tool.definition)),
    );
  });

  it('mixes into the catalog deterministically: 170 tools, every server block kept together', () => {
    const a = poisonCatalog(base, 42);
    const b = poisonCatalog(base, 42);
    expect(a.catalog.tools.map((t) => t.id)).toEqual(b.catalog.tools.map((t) => t.id));
    expect(a.catalog.tools).toHaveLength(170);
    expect(a.poisoned).toHaveLength(50);
    expect(a.skipped).toHaveLength(0);
    const servers = a.catalog.tools.map((t) => t.server).filter((s, i, xs) => i === 0 || xs[i - 1] !== s);
    expect(servers).toEqual(base.servers);
    const c = poisonCatalog(base, 7);
    expect(c.catalog.tools.map((t) => t.id)).not.toEqual(a.catalog.tools.map((t) => t.id));
  });

  it('payload detector: finds every payload in a full-schema listing, none in the summaries, and attributes fragments', () => {
    const { catalog, poisoned } = poisonCatalog(base, 42);
    const detector = new PayloadDetector(poisoned.map((p) => ({ id: p.id, payload: p.spec.payload })));
    const defs = detector.inSections([section('tools', 'defs', renderToolDefinitions(catalog.tools), true)]);
    expect(defs.full.size).toBe(50);
    const sums = detector.inSections([section('tools', 'pool', renderToolSummaries(catalog.tools), true)]);
    expect(sums.fragment.size).toBe(0);
    // A truncated description: a fragment of exactly one payload.
    const target = poisoned.find((p) => p.spec.placement === 'description-start')!;
    const cut = detector.inText(`tool: ${target.spec.payload.slice(0, 70)}\n`);
    expect(cut.full).toEqual([]);
    expect(cut.fragment).toEqual([target.id]);
    // The benign testbed alone has no payload text.
    expect(detector.inSections([section('tools', 'defs', renderToolDefinitions(base.tools), true)]).fragment.size).toBe(0);
  });

  it('payload detector: the one-pass scan finds what searching for every payload and piece finds', () => {
    const { catalog, poisoned } = poisonCatalog(base, 42);
    const payloads = poisoned.map((p) => ({ id: p.id, payload: p.spec.payload }));
    const texts = [
      renderToolDefinitions(catalog.tools),
      renderToolSummaries(catalog.tools),
      ...catalog.tools.map((t) => serializeToolDefinition(t.definition)),
      ...poisoned.flatMap((p) => [0.3, 0.5, 0.9].map((f) => `x ${p.spec.payload.slice(Math.floor(p.spec.payload.length * (1 - f)))}`)),
      ...poisoned.map((p) => JSON.stringify(p.spec.payload).slice(5, 80)),
      '',
      'short',
    ];
    for (const width of [32, 7, 400]) {
      const detector = new PayloadDetector(payloads, width);
      const reference = naiveDetector(payloads, width);
      for (const text of texts) expect(detector.inText(text), `${width}: ${text.slice(0, 60)}`).toEqual(reference(text));
    }
  });
});

/** The detector's answer by searching the text for each payload form and piece (the definition it must equal). */
function naiveDetector(payloads: readonly { id: string; payload: string }[], width: number) {
  const normalise = (t: string) => t.replace(/\s+/g, ' ');
  const forms = payloads.map(({ id, payload }) => {
    const raw = normalise(payload).trim();
    const full = [...new Set([raw, JSON.stringify(raw).slice(1, -1)])];
    const pieces = new Set<string>();
    for (const f of full) {
      for (let i = 0; i + width <= f.length; i += width) pieces.add(f.slice(i, i + width));
      pieces.add(f.length >= width ? f.slice(f.length - width) : f);
    }
    return { id, full, pieces: [...pieces] };
  });
  for (const f of forms) f.pieces = f.pieces.filter((piece) => !forms.some((g) => g !== f && g.full.some((x) => x.includes(piece))));
  return (text: string) => {
    const norm = normalise(text);
    return {
      full: forms.filter((f) => f.full.some((x) => norm.includes(x))).map((f) => f.id),
      fragment: forms.filter((f) => f.pieces.some((x) => norm.includes(x))).map((f) => f.id),
    };
  };
}
