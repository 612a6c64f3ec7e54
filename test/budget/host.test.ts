import { describe, expect, it } from 'vitest';
import { budgetReport, type BudgetReport } from '../../src/budget/budget.ts';
import { renderMarkdown, renderText } from '../../src/budget/render.ts';
import { splitDefinition } from '../../src/budget/split.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import { HostMeasure } from '../../src/hosts/measure.ts';
import { hostProfile } from '../../src/hosts/registry.ts';
import type { HostId } from '../../src/hosts/types.ts';
import { shortDefinition } from '../../src/pipelines/adol/short-mode.ts';
import { cliInProcess } from '../helpers/cli-in-process.ts';

// The budget gate under a host: totals differ from mcp-json by exactly what the host drops and
// adds, and the per-field breakdown shows the fields it drops.

const FILESYSTEM = 'catalogs/real/filesystem.json';
const catalog = loadCatalog(FILESYSTEM);
const hostOf = (id: HostId) => new HostMeasure(hostProfile({ id, tokenizer: 'cl100k_base' }));
const report = (id: HostId, perTool?: number): { r: BudgetReport; host: HostMeasure } => {
  const host = hostOf(id);
  return { r: budgetReport(catalog, host.tokens, { maxToolTokens: 1_000_000, perTool }, host), host };
};

describe.each(['openai-chat', 'openai-responses', 'anthropic'] as const)('budget --host %s', (id) => {
  const { r, host } = report(id, 120);

  it('gates what the host sends: each tool as it renders it, its request tokens once in the total', () => {
    for (const t of r.tools) expect(t.tokens).toBe(host.toolTokens(catalog.tools.find((c) => c.id === t.id)!.definition));
    expect(r.total.tokens).toBe(host.listTokens(catalog.tools.map((t) => t.definition)));
    expect(r.host!.requestTokens).toBe(host.requestTokens());
    expect(r.tokenizer).toBe(host.profile.tokenizer);
    expect(r.violations.filter((v) => v.includes('--per-tool')).length).toBe(r.tools.filter((t) => t.tokens > 120).length);
  });

  it('takes each tool from its compact JSON: minus the fields dropped, plus the rendering of the rest', () => {
    for (const t of r.tools) {
      const def = catalog.tools.find((c) => c.id === t.id)!.definition;
      const split = splitDefinition(def, host.tokens);
      expect(t.host!.mcpJson).toBe(host.tokens.count(serializeToolDefinition(def)));
      expect(t.host!.droppedFields.sort()).toEqual(
        Object.keys(def)
          .filter((k) => !['name', 'description', 'inputSchema'].includes(k))
          .sort(),
      );
      expect(t.host!.dropped).toBe(t.host!.droppedFields.reduce((n, f) => n + split.byField[f]!, 0));
      expect(t.host!.mcpJson - t.host!.dropped + t.host!.rendering).toBe(t.tokens);
      expect(t.adol.short).toBe(t.tokens - host.toolTokens(shortDefinition(def)));
    }
    const s = r.total.host!;
    expect(s.mcpJson - s.dropped + s.rendering + r.host!.requestTokens).toBe(r.total.tokens);
    expect(r.host!.droppedFields).toEqual(expect.arrayContaining(['outputSchema', 'annotations']));
    expect(r.total.adol.ref).toBe(0);
  });

  it('marks the dropped fields in the breakdown and explains the arithmetic', () => {
    const text = renderText(r);
    expect(text).toContain(`as ${host.profile.label} sends them`);
    expect(text).toContain('outputSchema (dropped)');
    expect(text).toContain('annotations (dropped)');
    expect(text).not.toContain('inputSchema (dropped)');
    expect(text).toContain('per request');
    expect(renderMarkdown(r)).toContain('| mcp-json | dropped | rendering |');
  });
});

describe('budget --host mcp-json', () => {
  it('is the compact JSON report, unchanged', () => {
    const mcp = hostOf('mcp-json');
    expect(budgetReport(catalog, mcp.tokens, { perTool: 1 }, mcp)).toEqual(budgetReport(catalog, mcp.tokens, { perTool: 1 }));
  });

  it('on the command line: anthropic and openai-chat totals against mcp-json, exit 0', async () => {
    const args = ['budget', '--catalog', FILESYSTEM, '--max-tool-tokens', '100000', '--json'];
    const [a, o] = await Promise.all([cliInProcess([...args, '--host', 'anthropic']), cliInProcess([...args, '--host', 'openai-chat'])]);
    expect([a.code, o.code]).toEqual([0, 0]);
    const ra = JSON.parse(a.stdout) as BudgetReport;
    const ro = JSON.parse(o.stdout) as BudgetReport;
    expect(ra.total.tokens).toBe(report('anthropic').r.total.tokens);
    expect(ro.tokenizer).toBe('o200k_base');
    expect(ro.total.tokens).toBe(ro.total.host!.mcpJson - ro.total.host!.dropped + ro.total.host!.rendering + 12);
  });
});
