import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { runBench } from '../../src/bench/run.ts';
import { HostMeasure } from '../../src/hosts/measure.ts';
import { hostProfile } from '../../src/hosts/registry.ts';
import type { RunManifest } from '../../src/results/manifest.ts';
import type { Table } from '../../src/table/table.ts';
import { renderToolDefinitions } from '../../src/prompt/render-tools.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';

// `bench --host`: Table 3, the footprint and the host-profiles table of a run on a user's catalog,
// with the pipelines on a worker lane (the host crosses to it as plain data).

const FIXTURE = join(process.cwd(), 'test', 'fixtures', 'small-catalog');
const dir = mkdtempSync(join(tmpdir(), 'tooltax-bench-host-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench --host anthropic --host-model claude-opus-4-1 --tool-choice any', () => {
  it('measures Table 3 and the footprint as the host sends the tools, and compares every profile', async () => {
    const tasks = join(dir, 'tasks.jsonl');
    writeFileSync(
      tasks,
      `${[
        { id: 'a', turns: [{ user: 'what did the team say in #deploys?', tools: ['read_channel'] }] },
        {
          id: 'b',
          turns: [
            { user: 'find where we call login()', tools: ['search_code'] },
            { user: 'hello', tools: [] },
          ],
        },
      ]
        .map((t) => JSON.stringify(t))
        .join('\n')}\n`,
    );
    const out = join(dir, 'results');
    await runBench({
      root: process.cwd(),
      seed: 42,
      seeds: [42],
      catalog: [FIXTURE],
      tasks,
      tokenizer: 'cl100k_base',
      host: { id: 'anthropic', model: 'claude-opus-4-1', toolChoice: 'any' },
      out,
      reports: join(dir, 'reports'),
      pipelines: ['b1-full-schema', 'b4-cli-lazy'],
      studies: ['projection'],
      lanes: 2,
      quick: false,
      log: () => {},
    });
    const table = (id: string) => JSON.parse(readFileSync(join(out, 'tables', `${id}.json`), 'utf8')) as Table;
    const host = new HostMeasure(hostProfile({ id: 'anthropic', model: 'claude-opus-4-1', toolChoice: 'any', tokenizer: 'cl100k_base' }));
    const defs = loadCatalog(FIXTURE).tools.map((t) => t.definition);
    // B1 sends every tool on every turn: the tools as Anthropic takes them, and the published 315 once.
    expect(host.requestTokens()).toBe(315);
    const t3 = table('table3-measured');
    expect(t3.rows.find((r) => r.method === 'B1 Full-Schema')!.toolTokens).toBe(host.listTokens(defs));
    expect(t3.notes![0]).toContain('tool list as anthropic (Claude Opus 4.1, tool_choice any) sends it');
    const footprint = table('catalog-footprint');
    expect(footprint.rows.at(-1)!.total).toBe(defs.reduce((n, d) => n + host.toolTokens(d), 0));
    const hosts = table('host-profiles');
    const b1 = hosts.rows.find((r) => r.method === 'B1 Full-Schema')!;
    expect(b1['tokens:anthropic']).toBe(host.listTokens(defs));
    // mcp-json is the prompt text itself, heading and line breaks included.
    expect(b1['tokens:mcp-json']).toBe(tokenCounter('cl100k_base').count(`${renderToolDefinitions(loadCatalog(FIXTURE).tools)}\n`));
    const b4 = hosts.rows.find((r) => r.method === 'B4 CLI Lazy')!;
    expect(b4['tokens:anthropic']).toBe(b4['tokens:mcp-json']);
    const manifest = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as RunManifest;
    expect(manifest.host).toEqual({ id: 'anthropic', label: 'anthropic (Claude Opus 4.1, tool_choice any)' });
  });
});
