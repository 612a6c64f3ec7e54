import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { budgetReport, type BudgetReport } from '../../src/budget/budget.ts';
import type { HostsReport } from '../../src/budget/hosts.ts';
import type { LintReport } from '../../src/lint/lint.ts';
import { MARKDOWN_MARKER, MARKDOWN_TOP, renderMarkdown, renderText } from '../../src/budget/render.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import { shortDefinition } from '../../src/pipelines/adol/short-mode.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { runCli } from '../mcp/helpers.ts';
import { cliInProcess } from '../helpers/cli-in-process.ts';

const SMALL = join(process.cwd(), 'test', 'fixtures', 'small-catalog');
const SYNTHETIC = join(process.cwd(), 'catalogs', 'synthetic-120');
const GITHUB = join(process.cwd(), 'catalogs', 'real', 'github.json');
const tmp = mkdtempSync(join(tmpdir(), 'tooltax-budget-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const tokens = tokenCounter();
const measured = (path: string) =>
  loadCatalog(path).tools.map((t) => ({ id: t.id, tokens: tokens.count(serializeToolDefinition(t.definition)) }));

describe('budgetReport', () => {
  const report = budgetReport(loadCatalog(SYNTHETIC), tokens, { maxToolTokens: 1_000_000 });

  it('totals what the footprint measures, per server and per tool, largest first', () => {
    const m = measured(SYNTHETIC);
    expect(report.total.tokens).toBe(m.reduce((s, t) => s + t.tokens, 0));
    expect(report.tools.map((t) => t.tokens)).toEqual(m.map((t) => t.tokens).sort((a, b) => b - a));
    for (const s of report.servers)
      expect(s.tokens).toBe(report.tools.filter((t) => t.server === s.server).reduce((a, t) => a + t.tokens, 0));
    for (const t of report.tools) expect(Object.values(t.parts).reduce((a, b) => a + b, 0)).toBe(t.tokens);
    expect(Object.values(report.total.parts).reduce((a, b) => a + b, 0)).toBe(report.total.tokens);
    expect(report.pass).toBe(true);
  });

  it('ADOL short mode saves exactly the difference to the short definition', () => {
    const catalog = loadCatalog(SYNTHETIC);
    for (const t of report.tools.slice(0, 10)) {
      const def = catalog.tools.find((c) => c.id === t.id)!.definition;
      expect(t.adol.short).toBe(t.tokens - tokens.count(serializeToolDefinition(shortDefinition(def))));
    }
  });

  it('finds a $ref dedup saving where definitions repeat (GitHub), and none for a lone tool', () => {
    const gh = budgetReport(loadCatalog(GITHUB), tokens, { perTool: 100_000 });
    expect(gh.servers[0]!.adol.ref).toBeGreaterThan(0);
    expect(gh.servers[0]!.adol.hoisted).toBeGreaterThan(0);
    const lone = join(tmp, 'lone.json');
    writeFileSync(
      lone,
      JSON.stringify({ tools: [gh.tools[0] && loadCatalog(GITHUB).tools.find((t) => t.id === gh.tools[0]!.id)!.definition] }),
    );
    expect(budgetReport(loadCatalog(lone), tokens, { perTool: 1 }).servers[0]!.adol.ref).toBe(0);
  });

  it('counts wire and inlined size for definitions that use $ref', () => {
    const point = {
      type: 'object',
      properties: { x: { type: 'number', description: 'X coordinate' }, y: { type: 'number', description: 'Y coordinate' } },
    };
    const def = {
      name: 'line',
      description: 'Draw a line.',
      inputSchema: { type: 'object', $defs: { point }, properties: { from: { $ref: '#/$defs/point' }, to: { $ref: '#/$defs/point' } } },
    };
    const inlined = { name: 'line', description: 'Draw a line.', inputSchema: { type: 'object', properties: { from: point, to: point } } };
    const file = join(tmp, 'refs.json');
    writeFileSync(file, JSON.stringify({ server: 'draw', tools: [def, { name: 'plain', inputSchema: { type: 'object' } }] }));
    const r = budgetReport(loadCatalog(file), tokens, { perTool: 1000 });
    const line = r.tools.find((t) => t.name === 'line')!;
    expect(line.refs).toMatchObject({
      wire: tokens.count(JSON.stringify(def)),
      inlined: tokens.count(JSON.stringify(inlined)),
      refs: 2,
      resolved: 2,
    });
    expect(r.tools.find((t) => t.name === 'plain')!.refs).toBeUndefined();
    expect(r.servers[0]!.refs).toEqual({ tools: 1, wire: line.refs!.wire, inlined: line.refs!.inlined });
    expect(renderText(r)).toContain('Definitions using $ref');
  });

  it('lists every violation: the total and each tool over --per-tool', () => {
    const m = measured(SMALL).sort((a, b) => b.tokens - a.tokens);
    const total = m.reduce((s, t) => s + t.tokens, 0);
    const r = budgetReport(loadCatalog(SMALL), tokens, { maxToolTokens: total - 1, perTool: m[1]!.tokens });
    expect(r.pass).toBe(false);
    expect(r.violations[0]).toBe(
      `all tool definitions: ${total.toLocaleString('en-US')} tokens > --max-tool-tokens ${(total - 1).toLocaleString('en-US')} (over by 1)`,
    );
    const over = m.filter((t) => t.tokens > m[1]!.tokens).map((t) => t.id);
    expect(r.violations.slice(1).map((v) => v.split(':')[0])).toEqual(over);
  });

  it('Markdown fits a PR comment: marker, status, top tools in full, the rest collapsed', () => {
    const md = renderMarkdown(report);
    expect(md.startsWith(`${MARKDOWN_MARKER}\n### Tool budget: ✅ within budget`)).toBe(true);
    const largest = md.split('**Largest definitions**')[1]!.split('<details>')[0]!;
    expect(largest.split('\n').filter((l) => /^\| \d+ \|/.test(l))).toHaveLength(MARKDOWN_TOP);
    expect(md).toContain(`<details><summary>${report.tools.length - MARKDOWN_TOP} more tools</summary>`);
    expect(md.length).toBeLessThan(65_536);
  });
});

// Exit status and output are the point: the first case runs the CLI as a process, the others the
// same command line in this process (test/helpers/cli-in-process.ts), concurrently.
describe.concurrent('budget command exit codes', () => {
  const total = () => measured(SMALL).reduce((s, t) => s + t.tokens, 0);

  it('exits 0 within budget and 1 over it', async ({ expect }) => {
    const [ok, over] = await Promise.all([
      runCli(['budget', '--catalog', SMALL, '--max-tool-tokens', String(total())]),
      runCli(['budget', '--catalog', SMALL, '--max-tool-tokens', String(total()), '--per-tool', '10', '--json']),
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout.startsWith('PASS: ')).toBe(true);
    expect(over.code).toBe(1);
    const r = JSON.parse(over.stdout) as BudgetReport;
    expect(r.pass).toBe(false);
    expect(r.violations.length).toBe(r.tools.length);
  });

  it('--host all: every host side by side, gated on each; --lint and --badge', async ({ expect }) => {
    const badge = join(tmp, 'badge.json');
    const r = await cliInProcess([
      'budget',
      '--catalog',
      SMALL,
      '--host',
      'all',
      '--max-tool-tokens',
      '1000',
      '--json',
      '--lint',
      '--badge',
      badge,
    ]);
    const all = JSON.parse(r.stdout) as HostsReport & { lint: LintReport };
    expect(all.hosts.map((h) => h.id)).toEqual(['mcp-json', 'openai-chat', 'openai-responses', 'anthropic']);
    all.hosts.forEach((h, i) => {
      expect(h.tokens).toBe(all.reports[i]!.total.tokens);
      expect(all.servers.reduce((n, s) => n + s.tokens[i]!, 0) + h.requestTokens).toBe(h.tokens);
    });
    // 1,000 tokens: the small catalog is within it as JSON, over it as Anthropic sends it.
    expect(all.hosts.find((h) => h.id === 'mcp-json')!.pass).toBe(true);
    expect(all.hosts.find((h) => h.id === 'anthropic')!.pass).toBe(false);
    expect(all.pass).toBe(false);
    expect(r.code).toBe(1);
    expect(all.lint.findings.length).toBeGreaterThan(0);
    const b = JSON.parse(readFileSync(badge, 'utf8')) as { schemaVersion: number; message: string; color: string };
    expect(b.schemaVersion).toBe(1);
    expect(b.color).toBe('red');
    for (const h of all.hosts) expect(b.message).toContain(h.id);
  });

  it('--host all prints the tool search auto rule once, for every host, as text and as Markdown', async () => {
    for (const format of [[], ['--markdown']]) {
      const r = await cliInProcess(['budget', '--catalog', SMALL, '--host', 'all', ...format]);
      expect(r.code).toBe(0);
      expect(r.stdout.match(/Tool search auto rule/g)).toHaveLength(1);
      for (const id of ['mcp-json', 'openai-chat', 'openai-responses', 'anthropic'])
        expect(r.stdout).toMatch(new RegExp(`${id}: [\\d,]+ tokens, [\\d.]+% of the window`));
    }
  });

  it('without a budget measures, prints and exits 0', async ({ expect }) => {
    const r = await cliInProcess(['budget', '--catalog', SMALL]);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(`MEASURED: ${total().toLocaleString('en-US')} tokens`)).toBe(true);
    expect(r.stdout).toContain('no budget given (measured only)');
  });

  it.for<[string, string[], string]>([
    [
      'no input',
      ['--max-tool-tokens', '5'],
      'error: budget: expected --catalog <dumps>, --from-config <file>, --from-server "<command>" or --from-url <url>',
    ],
    ['--host all with a model', ['--catalog', SMALL, '--host', 'all', '--host-model', 'gpt-4o'], 'error: --host all measures every host'],
    [
      'both formats',
      ['--catalog', SMALL, '--per-tool', '5', '--json', '--markdown'],
      'error: budget: expected at most one of --json and --markdown',
    ],
    [
      'a bad number',
      ['--catalog', SMALL, '--max-tool-tokens', 'lots'],
      "error: option '--max-tool-tokens <n>' argument 'lots' is invalid. expected a whole number of tokens (e.g. 20000)",
    ],
    [
      'a missing file',
      ['--catalog', join(tmp, 'missing.json'), '--per-tool', '5'],
      `error: ${join(tmp, 'missing.json')}: at (root): expected a tools/list JSON file or a folder of them, found nothing at ${join(tmp, 'missing.json')}`,
    ],
    [
      'a missing config',
      ['--from-config', join(tmp, 'none.json'), '--per-tool', '5'],
      `error: ${join(tmp, 'none.json')}: at (root): expected an MCP client config file`,
    ],
  ])('exits 2 on %s with one line', async ([, args, message], { expect }) => {
    const r = await cliInProcess(['budget', ...args]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.startsWith(message)).toBe(true);
  });
});
