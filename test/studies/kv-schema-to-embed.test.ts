import { describe, expect, it } from 'vitest';
import { runKvSchemaStudy } from '../../src/studies/kv-schema/run.ts';
import { kvSchemaStudy } from '../../src/studies/kv-schema/study.ts';
import { countingEncoder } from '../embed/fixtures/counting-encoder.ts';

describe('kv-schema study: what it embeds is declared up front', () => {
  it('embeds only texts its scheduling hint names, so a cold bench embeds them with the rest', async () => {
    const encoder = countingEncoder();
    await runKvSchemaStudy({ seed: 42, encoder, tokenizers: ['cl100k_base'] });
    const embedded = new Set(encoder.calls.flat());
    const declared = new Set(kvSchemaStudy.scheduling!.toEmbed!({} as never).texts ?? []);
    expect(embedded.size).toBeGreaterThan(0);
    expect([...embedded].filter((t) => !declared.has(t))).toEqual([]);
  });
});
