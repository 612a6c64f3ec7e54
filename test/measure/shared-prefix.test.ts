import { describe, expect, it } from 'vitest';
import { SERVER_SPECS } from '../../src/catalog/servers/index.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { runPipeline } from '../../src/measure/run-pipeline.ts';
import { commonLeadingSections, sharedPrefixTokens } from '../../src/measure/shared-prefix.ts';
import { measureTurn } from '../../src/measure/turn-metrics.ts';
import type { Pipeline, PromptSection, TurnExposure, TurnResult } from '../../src/pipelines/types.ts';
import { section } from '../../src/prompt/sections.ts';
import { TaskGenerator } from '../../src/tasks/generate.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';

const tokens = tokenCounter('cl100k_base');
const count = (sections: readonly PromptSection[]) => sections.reduce((n, s) => n + tokens.count(s.text), 0);
const long = (word: string) => Array.from({ length: 200 }, (_, i) => `${word} ${i}`).join('\n');

const sys = section('system', 'system', long('system rule'), true);
const tools = section('tools', 'tool-definitions', long('tool definition'), true);
const h1 = section('history', 'turn-1', 'User: list the open pull requests\nAssistant: there are three.', false);
const u1 = section('user', 'user-message', 'User: list the open pull requests', false);
const u2 = section('user', 'user-message', 'User: and the issues?', false);

const exposure = (ids: string[]): TurnExposure => ({ listedTools: ids, fullSchemaTools: ids, discoveryCalls: [] });
const result = (sections: PromptSection[], ids: string[] = []): TurnResult => ({ prompt: { sections }, exposure: exposure(ids) });

describe('the shared prefix, measured on the prompt text', () => {
  it('is 0 on a task’s first turn, then the tokens of the leading sections identical to the turn before', () => {
    expect(measureTurn(result([sys, tools, u1]), [], tokens).sharedPrefixTokens).toBe(0);
    const m = measureTurn(result([sys, tools, h1, u2]), [], tokens, {}, [sys, tools, u1]);
    expect(m.sharedPrefixTokens).toBe(count([sys, tools]));
    expect(m.sharedPrefixTokens).toBeLessThan(m.promptTokens);
  });

  it('compares texts and roles, not which pipeline made the sections, their labels, stable marks or exposure', () => {
    const previous = [sys, tools, u1];
    const base = measureTurn(result([sys, tools, h1, u2]), [], tokens, {}, previous).sharedPrefixTokens;
    // Equal texts in other section objects, other labels, no stable mark; another exposure.
    const copies = [section('system', 'other-label', sys.text, false), section('tools', 'promoted-schemas', tools.text, false), h1, u2];
    expect(measureTurn(result(copies, ['srv/a', 'srv/b']), ['srv/a'], tokens, {}, previous).sharedPrefixTokens).toBe(base);
    // The same text under another role is another block.
    const asUser = [sys, { ...tools, role: 'user' as const }, h1, u2];
    expect(measureTurn(result(asUser), [], tokens, {}, previous).sharedPrefixTokens).toBe(count([sys]));
  });

  it('stops at the first changed section, even when later ones are equal again', () => {
    const toolsV2 = section('tools', 'tool-definitions', long('changed definition'), true);
    expect(commonLeadingSections([sys, tools, h1, u1], [sys, toolsV2, h1, u2])).toBe(1);
    expect(sharedPrefixTokens([sys, tools, h1, u1], [sys, toolsV2, h1, u2], [1, 2, 3, 4])).toBe(1);
    expect(sharedPrefixTokens([toolsV2, sys], [tools, sys], [5, 5])).toBe(0);
    expect(sharedPrefixTokens(undefined, [sys], [5])).toBe(0);
  });
});

describe('runPipeline records the shared prefix against the task’s turn before', () => {
  // A stand-in pipeline (not a method): the system text, a fixed tool list, the history, then a
  // section that changes every turn, then the user message.
  const standIn: Pipeline = {
    id: 'stand-in',
    label: 'stand-in',
    async turn({ shared, turnIndex }) {
      const perTurn = section('tools', 'loaded', `loaded definitions of turn ${turnIndex}`, false);
      return result([shared.system, tools, ...shared.history, perTurn, shared.user]);
    },
  };

  it('shares the system text, the tool list and all but the newest history section', async () => {
    const catalog = loadCatalog('catalogs/synthetic-120');
    const tasks = new TaskGenerator(SERVER_SPECS)
      .generate(42)
      .filter((t) => t.kind === 'multi')
      .slice(0, 2);
    const records = await runPipeline(standIn, tasks, { catalog, tokens, seed: 42 });
    const sections: PromptSection[][] = [];
    const again = {
      ...standIn,
      turn: async (input: Parameters<Pipeline['turn']>[0]) => {
        const r = await standIn.turn(input);
        sections.push(r.prompt.sections);
        return r;
      },
    };
    await runPipeline(again, tasks, { catalog, tokens, seed: 42 });
    expect(records.length).toBe(sections.length);
    records.forEach((r, i) => {
      if (r.turn === 0) return expect(r.sharedPrefixTokens).toBe(0);
      // Everything before the newest history section, the per-turn section and the user message.
      const expected = count(sections[i]!.slice(0, sections[i]!.length - 3));
      expect(r.sharedPrefixTokens, `${r.taskId} turn ${r.turn}`).toBe(expected);
    });
    expect(records.some((r) => r.turn > 1)).toBe(true);
  });
});
