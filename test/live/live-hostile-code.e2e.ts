import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { live } from '../../src/commands/live.ts';
import { codeName } from '../../src/pipelines/code-mode/render.ts';
import { standInLiveOptions } from '../helpers/small-runs.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { HOSTILE_CODE } from './hostile-code.ts';
import { afterToolResult, startScriptedLlmServer, textReply, toolCallReply, type StandInServer } from './scripted-llm-server.ts';

/**
 * `live` against the scripted TEST STAND-IN (not a model) writing hostile code: Code Mode's
 * model sends one hostile piece per task, Tool Attention + code's calls every tool of the
 * catalog from one script. Each piece comes back as a tool error, the gate holds inside code,
 * and the run goes on to the end.
 */
let server: StandInServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const catalog = loadCatalog(join(process.cwd(), 'catalogs', 'synthetic-120'));
const CASES = [
  HOSTILE_CODE.longBuiltinCalls,
  'async () => { await codemode.github_get_me({ toJSON() { for (;;) {} } }); }',
  HOSTILE_CODE.endlessGetter,
  HOSTILE_CODE.allocationBomb,
  HOSTILE_CODE.deepRecursion,
  'async () => codemode.github_get_me("me")',
  'async () => codemode.no_such_tool({})',
];
const EVERY_TOOL = `let n = 0; for (const name of ${JSON.stringify(catalog.tools.map((t) => codeName(t)))}) { try { await globalThis[name]({}); n++; } catch {} } console.log(n);`;

describe('live: hostile code', () => {
  it('each hostile piece of code is a tool error, the gate holds inside code, and the run completes', async () => {
    let next = 0;
    const sent: string[] = [];
    server = await startScriptedLlmServer((r) => {
      const tools = (r.body.tools ?? []).map((t) => t.function.name);
      if (afterToolResult(r)) return textReply(r);
      if (tools.includes('codemode')) {
        const code = CASES[next++ % CASES.length]!;
        sent.push(code);
        return toolCallReply(r, [{ name: 'codemode', arguments: JSON.stringify({ code }) }]);
      }
      if (tools.includes('code_execution'))
        return toolCallReply(r, [{ name: 'code_execution', arguments: JSON.stringify({ code: EVERY_TOOL }) }]);
      return textReply(r);
    });
    const out = join(makeTempDir('tooltax-live-hostile-'), 'out');
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-standin-not-a-secret';
    try {
      await live(
        standInLiveOptions(server.url, out, { tasks: CASES.length, pipelines: ['code-mode', 'tool-attention+code'] }),
        process.cwd(),
        () => {},
      );
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
    expect(sent).toEqual(CASES);
    // Every hostile piece came back to the model as the code tool's error.
    const results = server.requests.flatMap((r) =>
      (r.body.messages ?? [])
        .filter((m) => m.role === 'tool')
        .map((m) => JSON.parse(String(m.content)) as { error?: string; detail?: string }),
    );
    const codeErrors = new Set(results.filter((x) => x.error === 'code_error').map((x) => x.detail));
    expect([...codeErrors].sort()).toEqual(
      expect.arrayContaining([
        'time limit: the code ran too long',
        expect.stringMatching(/^(memory|time) limit/),
        'stack limit: the code recursed too deeply',
        expect.stringContaining('invalid_arguments'),
        expect.stringContaining('unknown_tool'),
      ]),
    );
    // The run went on to the end: every task of both pipelines has its outcome.
    const outcomes = readFileSync(join(out, 'live-outcomes.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            pipeline: string;
            turns: { calls: { kind: string; name: string; toolId?: string; gated: boolean; error?: string }[] }[];
          },
      );
    expect(outcomes.filter((o) => o.pipeline === 'code-mode')).toHaveLength(CASES.length);
    expect(outcomes.filter((o) => o.pipeline === 'tool-attention+code')).toHaveLength(CASES.length);
    const calls = (pipeline: string) => outcomes.filter((o) => o.pipeline === pipeline).flatMap((o) => o.turns.flatMap((t) => t.calls));
    // Code Mode: the non-object argument and the unknown name are recorded as invalid calls.
    expect(calls('code-mode')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'tool', toolId: 'github/get_me', error: 'invalid_arguments' }),
        expect.objectContaining({ kind: 'invalid', name: 'no_such_tool', error: 'unknown_tool' }),
      ]),
    );
    // Tool Attention + code: the script tried all 120 tools; the gate let through only the active set.
    const tried = calls('tool-attention+code').filter((c) => c.kind === 'tool');
    expect(tried.length).toBe(catalog.tools.length * CASES.length);
    const through = tried.filter((c) => !c.gated);
    expect(through.length).toBeGreaterThan(0);
    expect(new Set(through.map((c) => c.toolId)).size).toBeLessThan(catalog.tools.length);
    expect(tried.filter((c) => c.gated).every((c) => c.error === 'tool_not_available')).toBe(true);
  }, 120_000);
});
