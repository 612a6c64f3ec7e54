import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { live, type LiveCommandOptions } from '../../src/commands/live.ts';
import { keywordAgent, startScriptedLlmServer } from './scripted-llm-server.ts';
import { standInLiveOptions } from '../helpers/small-runs.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const options = (baseUrl: string, out: string): LiveCommandOptions => standInLiveOptions(baseUrl, out);

// Whole `live` commands (measure, project, run): given the time a loaded machine needs.
describe('live command end to end against the scripted stand-in', { timeout: 120_000 }, () => {
  it('runs the sampled tasks for each pipeline and writes live beside projected, provider tokens beside ours, and every exchange', async () => {
    const server = await startScriptedLlmServer(keywordAgent());
    const out = mkdtempSync(join(tmpdir(), 'tooltax-live-cmd-'));
    dirs.push(out);
    const lines: string[] = [];
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-standin-e2e';
    try {
      expect(await live(options(server.url, out), process.cwd(), (l) => lines.push(l))).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
      await server.close();
    }
    const table = (id: string) => JSON.parse(readFileSync(join(out, 'tables', `${id}.json`), 'utf8'));
    const vs = table('live-vs-projected');
    expect(vs.rows.map((r: { method: string }) => r.method)).toEqual(['B1 Full-Schema', 'B4 CLI Lazy']);
    for (const r of vs.rows) {
      expect(r.tasks).toBe(2);
      expect(r.liveCi).toMatch(/^\d+\.\d–\d+\.\d$/);
      expect(typeof r.projected).toBe('number');
    }
    const tokens = table('live-tokens');
    for (const r of tokens.rows) expect(r.provider).toBeGreaterThan(0);
    // B4's requests carry the shell tool only; its --list/--help come back as tool results.
    const b4 = server.requests.filter((r) => r.body.tools?.some((t) => t.function.name === 'shell'));
    expect(b4.length).toBeGreaterThan(0);
    expect(b4.every((r) => r.body.tools!.length === 1)).toBe(true);
    expect(readdirSync(join(out, 'requests'))).toHaveLength(server.requests.length);
    const outcomes = readFileSync(join(out, 'live-outcomes.jsonl'), 'utf8').trim().split('\n');
    expect(outcomes).toHaveLength(4);
    const run = JSON.parse(readFileSync(join(out, 'live-run.json'), 'utf8'));
    expect(run).toMatchObject({ provider: 'openai', model: 'stand-in', pipelines: ['b1-full-schema', 'b4-cli-lazy'], stopped: null });
    expect(JSON.stringify(run)).not.toContain('sk-standin-e2e');
    expect(lines.join('\n')).toContain('Live run (openai stand-in) beside the projection of the same tasks');
  });

  it('stops before the budget is spent and says so (exit status 1)', async () => {
    const server = await startScriptedLlmServer(keywordAgent());
    const out = mkdtempSync(join(tmpdir(), 'tooltax-live-cmd-'));
    dirs.push(out);
    process.env.OPENAI_API_KEY ??= 'sk-standin-e2e';
    try {
      // $1,000 per M tokens: a ~30k-token B1 request could cost ~$30, far past $0.05.
      const o = { ...options(server.url, out), price: [1000, 1000] as [number, number], maxUsd: 0.05 };
      expect(await live(o, process.cwd(), () => {})).toBe(1);
    } finally {
      await server.close();
    }
    expect(server.requests).toHaveLength(0);
    const vs = JSON.parse(readFileSync(join(out, 'tables', 'live-vs-projected.json'), 'utf8'));
    expect(vs.notes.join(' ')).toMatch(/Stopped early: budget cap/);
  });
});
