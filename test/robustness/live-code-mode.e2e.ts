import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { live } from '../../src/commands/live.ts';
import { standInLiveOptions } from '../helpers/small-runs.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { keywordAgent, startScriptedLlmServer, type StandInServer } from '../live/scripted-llm-server.ts';

/**
 * `live` runs code-mode end to end against the scripted TEST STAND-IN (not a model): the
 * stand-in reads the `codemode` tool's TypeScript API, writes an async function that calls the
 * best-matching tool, and the executor runs it in the WebAssembly sandbox (src/live/sandbox.ts).
 */
let server: StandInServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('live: code mode', () => {
  it('sends one codemode tool and runs the model’s code in the sandbox', async () => {
    server = await startScriptedLlmServer(keywordAgent());
    const out = join(makeTempDir('tooltax-live-code-'), 'out');
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-standin-not-a-secret';
    try {
      await live(standInLiveOptions(server.url, out, { tasks: 2, pipelines: ['code-mode'] }), process.cwd(), () => {});
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
    const first = server.requests[0]!.body as { tools?: { function: { name: string; description?: string } }[] };
    expect(first.tools?.map((t) => t.function.name)).toEqual(['codemode']);
    expect(first.tools?.[0]?.function.description).toContain('declare const codemode');
    // The code's answer came back as the codemode tool's result: a JSON object with result and logs.
    const toolMessages = server.requests.flatMap((r) =>
      ((r.body as { messages?: { role: string; content?: string }[] }).messages ?? []).filter((m) => m.role === 'tool'),
    );
    expect(toolMessages.length).toBeGreaterThan(0);
    const answer = JSON.parse(toolMessages[0]!.content!) as Record<string, unknown>;
    expect(Object.keys(answer).sort()).toEqual(expect.arrayContaining(['logs']));
    const outcomes = readFileSync(join(out, 'live-outcomes.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { turns: { calls: { kind: string }[] }[] });
    const kinds = outcomes.flatMap((o) => o.turns.flatMap((t) => t.calls.map((c) => c.kind)));
    expect(kinds).toContain('code');
    expect(kinds).toContain('tool');
  });
});
