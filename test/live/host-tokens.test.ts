import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { HostMeasure } from '../../src/hosts/measure.ts';
import { liveProfiles } from '../../src/hosts/registry.ts';
import { hostRequestTokens } from '../../src/hosts/request.ts';
import { runLiveTask, type LiveTurnOutcome } from '../../src/live/agent-loop.ts';
import { BudgetGuard } from '../../src/live/budget.ts';
import { openAiClient } from '../../src/live/openai-client.ts';
import { ExchangeRecorder } from '../../src/live/recorder.ts';
import { liveTokensTable, type LiveMethod } from '../../src/live/tables.ts';
import { createFullSchemaPipeline } from '../../src/pipelines/b1-full-schema/pipeline.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { codeSearchTask } from './code-search-task.ts';
import { afterToolResult, startScriptedLlmServer, textReply, toolCallReply } from './scripted-llm-server.ts';

// Live mode puts each host profile's count of a request beside the provider's: against the
// stand-in (whose counts mean nothing) the point is the arithmetic and that every profile counts
// the very request that was sent.

const catalog = loadCatalog(join(process.cwd(), 'test', 'fixtures', 'small-catalog'));
const tokens = tokenCounter('cl100k_base');
const dir = mkdtempSync(join(tmpdir(), 'tooltax-live-hosts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const task = codeSearchTask('live-h1');

describe('live-tokens: host profiles beside the provider', () => {
  it('counts the first request of each turn under every built-in profile, as the profile counts that request', async () => {
    const server = await startScriptedLlmServer((r) =>
      afterToolResult(r) ? textReply(r) : toolCallReply(r, [{ name: 'code__search_code', arguments: '{"query":"login"}' }]),
    );
    try {
      const pipeline = createFullSchemaPipeline();
      await pipeline.prepare!({ catalog, tokens, seed: 42, workDir: '', calibrationTasks: [], historyTasks: [] });
      const { profiles, notes } = liveProfiles('gpt-4o-mini', 'cl100k_base');
      expect(notes).toEqual([expect.stringContaining('anthropic counts with claude-sonnet-4-5')]);
      const hosts = profiles.map((p) => new HostMeasure(p));
      const outcome = await runLiveTask(pipeline, task, {
        client: openAiClient('sk-test', server.url, { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 2000 }),
        model: 'gpt-4o-mini',
        catalog,
        tokens,
        budget: new BudgetGuard({ inputPerMTok: 1, outputPerMTok: 1, source: 'test' }, 10),
        recorder: new ExchangeRecorder(dir),
        maxTokens: 64,
        maxSteps: 3,
        gate: false,
        hosts,
      });
      const turn = outcome.turns[0]!;
      expect(Object.keys(turn.hostPromptTokens!)).toEqual(['mcp-json', 'openai-chat', 'openai-responses', 'anthropic']);
      // Recount the request the stand-in received, from its wire form.
      const body = server.requests[0]!.body;
      const system = String(body.messages![0]!.content);
      const user = String(body.messages![1]!.content);
      const sentTools = body.tools!.map((t) => ({
        ...catalog.tools.find((c) => c.id === t.function.name.replace('__', '/'))!.definition,
        name: t.function.name,
      }));
      for (const h of hosts)
        expect(turn.hostPromptTokens![h.id]).toBe(
          hostRequestTokens(h, { system, messages: [{ role: 'user', text: user }], tools: sentTools }),
        );
      const chat = hosts.find((h) => h.id === 'openai-chat')!;
      // The cookbook's framing: 3 per message plus the role, 3 for the reply; func_end once.
      expect(turn.hostPromptTokens!['openai-chat']).toBe(
        chat.tokens.count(system) +
          chat.tokens.count(user) +
          2 * 3 +
          chat.tokens.count('system') +
          chat.tokens.count('user') +
          3 +
          chat.listTokens(sentTools),
      );
    } finally {
      await server.close();
    }
  });

  it('gives each profile its mean count and its error against the provider over the same turns', () => {
    const turn = (provider: number, byHost: Record<string, number> | undefined): LiveTurnOutcome =>
      ({
        modelCalls: 1,
        providerPromptTokens: provider,
        sentPromptTokens: 1,
        measuredPromptTokens: 1,
        cachedInputTokens: 0,
        outputTokens: 0,
        hostPromptTokens: byHost,
      }) as LiveTurnOutcome;
    const method = {
      label: 'B1',
      outcomes: [
        {
          turns: [
            turn(1000, { anthropic: 900, 'openai-chat': 1100 }),
            turn(3000, { anthropic: 2700, 'openai-chat': 3300 }),
            turn(500, undefined),
          ],
        },
      ],
    } as unknown as LiveMethod;
    const hosts = [
      { id: 'anthropic', label: 'anthropic (x)', tokenizerNote: 'stand-in' },
      { id: 'openai-chat', label: 'openai-chat (y)', tokenizerNote: 'o200k' },
    ];
    const t = liveTokensTable([method], 'cl100k_base', hosts, ['a note']);
    const row = t.rows[0]!;
    expect(row['host:anthropic']).toBe(1800);
    expect(row['hostError:anthropic']).toBeCloseTo(-10, 10);
    expect(row['host:openai-chat']).toBe(2200);
    expect(row['hostError:openai-chat']).toBeCloseTo(10, 10);
    expect(row.provider).toBeCloseTo(1500, 10);
    expect(t.columns.map((c) => c.key)).toContain('hostError:anthropic');
    expect(t.notes).toContain('a note');
  });
});
