import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { realPrimaryDumps } from '../../src/table/suites.ts';
import { HostMeasure } from '../../src/hosts/measure.ts';
import { hostProfile } from '../../src/hosts/registry.ts';
import type { HostId } from '../../src/hosts/types.ts';
import { fixCatalog, lintContext, runLint, type LintReport } from '../../src/lint/lint.ts';
import { LINT_RULES } from '../../src/lint/registry.ts';
import { renderLintMarkdown, renderLintText } from '../../src/lint/render.ts';
import { runCli } from '../mcp/helpers.ts';
import { cliInProcess } from '../helpers/cli-in-process.ts';

const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'lint');
const tmp = mkdtempSync(join(tmpdir(), 'tooltax-lint-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const host = (id: HostId = 'mcp-json') => new HostMeasure(hostProfile({ id, tokenizer: 'cl100k_base' }));
const lint = (path: string | string[], id: HostId = 'mcp-json') =>
  runLint(lintContext(loadCatalog(path, undefined, { repeatedNames: 'keep-first' }), host(id)));
const ofRule = (r: LintReport, rule: string) => r.findings.filter((f) => f.rule === rule);

describe('every lint rule has a fixture that triggers it and one that does not', () => {
  it('has a fixture folder for each rule and no folder without a rule', () => {
    expect(LINT_RULES.length).toBeGreaterThanOrEqual(8);
    expect(readdirSync(FIXTURES).sort()).toEqual(LINT_RULES.map((r) => r.id).sort());
  });
  it.each(LINT_RULES.map((r) => r.id))('%s', (id) => {
    const triggers = join(FIXTURES, id, 'triggers.json');
    const passes = join(FIXTURES, id, 'passes.json');
    expect(existsSync(triggers) && existsSync(passes)).toBe(true);
    const found = ofRule(lint(triggers), id);
    expect(found.length).toBeGreaterThan(0);
    for (const f of found) {
      expect(f.problem.length).toBeGreaterThan(0);
      expect(f.fix.length).toBeGreaterThan(0);
      expect(f.tool).toMatch(/\//);
      expect(Number.isInteger(f.recoverable) && f.recoverable >= 0).toBe(true);
    }
    expect(ofRule(lint(passes), id)).toEqual([]);
  });
});

describe('rules under a provider host', () => {
  it('tool-name: a dotted name is within the MCP rules but refused by OpenAI and Anthropic', () => {
    const dotted = join(tmp, 'dotted.json');
    const def = loadCatalog(join(FIXTURES, 'tool-name', 'passes.json')).tools[0]!.definition;
    writeFileSync(dotted, JSON.stringify({ server: 'x', tools: [{ ...def, name: 'notes.read' }] }));
    expect(ofRule(lint(dotted), 'tool-name')).toEqual([]);
    for (const id of ['openai-chat', 'openai-responses', 'anthropic'] as const) {
      const [f] = ofRule(lint(dotted, id), 'tool-name');
      expect(f?.problem).toContain('refuses the request');
      expect(f?.fix).toContain('"notes_read"');
    }
  });
  it('dropped-fields: says what the host does not send and recovers nothing there', () => {
    const [f] = ofRule(lint(join(FIXTURES, 'dropped-fields', 'triggers.json'), 'anthropic'), 'dropped-fields');
    expect(f?.problem).toMatch(/does not send outputSchema on 1 of 1 tools/);
    expect(f?.recoverable).toBe(0);
    const [m] = ofRule(lint(join(FIXTURES, 'dropped-fields', 'triggers.json')), 'dropped-fields');
    expect(m!.recoverable).toBeGreaterThan(0);
  });
  it('repeated-subschema across tools is mcp-json only (a provider takes one schema per tool)', () => {
    const gh = realPrimaryDumps(process.cwd()).find((f) => f.endsWith('github.json'))!;
    expect(ofRule(lint(gh), 'repeated-subschema').some((f) => f.tool.endsWith('/*'))).toBe(true);
    expect(ofRule(lint(gh, 'anthropic'), 'repeated-subschema').some((f) => f.tool.endsWith('/*'))).toBe(false);
  });
});

describe('lint on the six real dumps', () => {
  const ctx = lintContext(loadCatalog(realPrimaryDumps(process.cwd())), host());
  const report = runLint(ctx);

  it('lists findings with fixes and recoverable tokens, and a mechanical fix recovers what it says', () => {
    expect(report.findings.length).toBeGreaterThan(10);
    expect(report.findings.some((f) => f.mechanical && f.recoverable > 0)).toBe(true);
    const tokens = (defs: { definition: unknown }[]) => defs.reduce((n, t) => n + ctx.host.toolTokens(t.definition as never), 0);
    const fixed = fixCatalog(ctx).flatMap((s) => s.tools.map((definition) => ({ definition })));
    const mechanical = report.findings.filter((f) => f.mechanical).reduce((n, f) => n + f.recoverable, 0);
    // Each fix's saving is measured on the original definition; applied together they can overlap a little.
    const saved = tokens(ctx.catalog.tools) - tokens(fixed);
    expect(saved).toBeGreaterThan(0);
    expect(saved).toBeLessThanOrEqual(mechanical);
  });

  it('--fix output passes the mechanical rules', () => {
    const fixedDir = join(tmp, 'fixed-real');
    mkdirSync(fixedDir);
    for (const s of fixCatalog(ctx)) writeFileSync(join(fixedDir, `${s.server.replace(/[^A-Za-z0-9._-]/g, '_')}.json`), JSON.stringify(s));
    const again = runLint(lintContext(loadCatalog(fixedDir), host()));
    expect(again.findings.filter((f) => f.mechanical)).toEqual([]);
    expect(again.tools).toBe(report.tools);
  });

  it('renders text and a Markdown comment', () => {
    const text = renderLintText(report);
    expect(text.split('\n')[0]).toMatch(/^\d+ finding\(s\): /);
    const md = renderLintMarkdown(report, true);
    expect(md.startsWith('<!-- tooltax-lint -->\n### Tool lint: ❌')).toBe(true);
    expect(md.length).toBeLessThan(65_536);
  });
});

describe.concurrent('lint command', () => {
  const triggers = join(FIXTURES, 'missing-description', 'triggers.json');
  const passes = join(FIXTURES, 'missing-description', 'passes.json');
  it('exits 1 on a finding at --fail-on, 0 below it, 2 on bad input', async ({ expect }) => {
    // The first as a process (its exit status), the others in this process.
    const [bad, below, clean, json, missing] = await Promise.all([
      runCli(['lint', '--catalog', triggers]),
      cliInProcess(['lint', '--catalog', triggers, '--fail-on', 'never']),
      cliInProcess(['lint', '--catalog', passes, '--fail-on', 'error']),
      cliInProcess(['lint', '--catalog', triggers, '--json']),
      cliInProcess(['lint', '--catalog', join(tmp, 'none.json')]),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('missing-description');
    expect(below.code).toBe(0);
    expect(clean.code).toBe(0);
    expect((JSON.parse(json.stdout) as LintReport).findings.some((f) => f.rule === 'missing-description')).toBe(true);
    expect(missing.code).toBe(2);
  });
  it('--fix writes one dump per server', async ({ expect }) => {
    const out = join(tmp, 'fixed-cli');
    const r = await cliInProcess([
      'lint',
      '--catalog',
      join(FIXTURES, 'long-description', 'triggers.json'),
      '--fix',
      out,
      '--fail-on',
      'never',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('--fix: 1 of 1 tools changed');
    expect(ofRule(lint(out), 'long-description')).toEqual([]);
  });
});
