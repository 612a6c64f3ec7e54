import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureHops, measureWorkflows } from '../../../src/protocols/aacp/measure.ts';
import { coordinationMessages } from '../../../src/protocols/aacp/messages.ts';
import { AACP_PARAMS, PUBLISHED_AACP_PAYROLL } from '../../../src/protocols/aacp/params.ts';
import { aacpTables } from '../../../src/studies/aacp/tables.ts';
import { tableToMarkdown } from '../../../src/report/table-text.ts';
import { runAacpStudy } from '../../../src/studies/aacp/run.ts';
import { makeTempDir } from '../../helpers/temp.ts';
import { countTokens } from '../../../src/tokens/counter.ts';
import { InputError } from '../../../src/util/input-error.ts';

describe('coordination token measurement', () => {
  const messages = coordinationMessages();
  const hops = measureHops(messages);
  const workflows = measureWorkflows(hops);

  it('covers every hop of the four workflows in both tokenizers and every framing', () => {
    expect(messages).toHaveLength(18);
    expect(hops).toHaveLength(18 * 2 * 3);
  });

  it('bare counts are the tokenizer counts of the exact English and packet text', () => {
    const m = messages.find((x) => x.hop === 'fetch-employees')!;
    expect(m.packet).toBe('FETCH|HR|return:HR-Agent|p:1|aacp:1.1|res:emp_salary|period:2024-08|filter:status=active|fmt:json');
    for (const tokenizer of ['cl100k_base', 'o200k_base'] as const) {
      const row = hops.find((r) => r.hop === 'fetch-employees' && r.tokenizer === tokenizer && r.framing === 'bare')!;
      expect(row.englishTokens).toBe(countTokens(m.english, tokenizer));
      expect(row.aacpTokens).toBe(countTokens(m.packet, tokenizer));
      expect(row.changePct).toBeCloseTo(((row.aacpTokens - row.englishTokens) / row.englishTokens) * 100, 1);
    }
  });

  it('framing adds the per-message parameter to both sides', () => {
    const bare = hops.find((r) => r.hop === 'merge-calculate' && r.tokenizer === 'cl100k_base' && r.framing === 'bare')!;
    const chat = hops.find((r) => r.hop === 'merge-calculate' && r.tokenizer === 'cl100k_base' && r.framing === 'openai-chat')!;
    expect(chat.englishTokens - bare.englishTokens).toBe(AACP_PARAMS.framing['openai-chat'].tokens);
    expect(chat.aacpTokens - bare.aacpTokens).toBe(AACP_PARAMS.framing['openai-chat'].tokens);
  });

  it('the published columns carry the draft figures beside, not instead of, ours', () => {
    const row = hops.find((r) => r.hop === 'merge-calculate' && r.tokenizer === 'o200k_base' && r.framing === 'bare')!;
    expect(row.publishedEnglish).toBe(65);
    expect(row.publishedAacp).toBe(43);
    expect(row.aacpTokens).not.toBe(row.publishedAacp);
    expect(hops.find((r) => r.workflow === 'invoice')!.publishedEnglish).toBeNull();
    const total = workflows.find((w) => w.workflow === 'payroll-4hop' && w.tokenizer === 'cl100k_base' && w.framing === 'bare')!;
    expect(total.hops).toBe(4);
    expect(total.publishedClaudePct).toBe(PUBLISHED_AACP_PAYROLL.total.claudePct);
    const sum = hops.filter(
      (r) =>
        r.workflow === 'payroll' && r.tokenizer === 'cl100k_base' && r.framing === 'bare' && !['log-run', 'send-report'].includes(r.hop),
    );
    expect(total.englishTokens).toBe(sum.reduce((s, r) => s + r.englishTokens, 0));
  });

  it("the English baselines are the harness's own text, not the draft's", () => {
    const draftHop1 = 'Please retrieve the employee salary records for the period ending';
    expect(messages.some((m) => m.english.includes(draftHop1))).toBe(false);
  });
});

describe('runAacpStudy', () => {
  it('returns plain rows, persists the registry and renders Markdown with the published figures beside ours', async () => {
    const registryPath = join(makeTempDir('aacp-study-'), 'registry.json');
    const r = await runAacpStudy({ seed: 42, registryPath, runs: 60 });
    expect(r.registryEntriesAtStart).toBe(0);
    expect(r.streamRows.map((s) => s.mode)).toEqual(['stale-safe', 'reference-sdk-tier2']);
    expect(JSON.parse(readFileSync(registryPath, 'utf8')).entries).toHaveLength(r.streamRows[0]!.registryEntries);
    expect(JSON.parse(JSON.stringify(r.hopRows))).toEqual(r.hopRows); // plain data

    const again = await runAacpStudy({ seed: 42, registryPath, runs: 60 });
    expect(again.registryEntriesAtStart).toBe(r.streamRows[0]!.registryEntries);
    expect(again.streamRows[0]!.llmCalls).toBe(0); // every pattern is known now

    const md = aacpTables(r).map(tableToMarkdown).join('\n');
    expect(md).toContain('| fetch-employees |');
    expect(md).toContain('| 56 | 52 | -7.1 | -12.7 |');
    expect(md).toContain('StandInLlmEncoder (stand-in, no model called)');
    expect(md).toContain('\\|'); // no raw pipes break the tables
  });

  it('stops on a corrupt registry and leaves it untouched', async () => {
    const registryPath = join(makeTempDir('aacp-study-'), 'registry.json');
    writeFileSync(registryPath, 'not json');
    await expect(runAacpStudy({ registryPath, runs: 5 })).rejects.toThrow(InputError);
    expect(readFileSync(registryPath, 'utf8')).toBe('not json');
  });
});
