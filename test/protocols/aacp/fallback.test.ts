import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FallbackEncoder } from '../../../src/protocols/aacp/fallback.ts';
import { payrollInstruction } from '../../../src/protocols/aacp/instructions.ts';
import { StandInLlmEncoder, type LlmPacketEncoder } from '../../../src/protocols/aacp/llm-encoder.ts';
import { AacpRegistry, instructionHash, normaliseInstruction } from '../../../src/protocols/aacp/registry.ts';
import { AacpValidationError } from '../../../src/protocols/aacp/validator.ts';
import { encodePayrollHop } from '../../../src/protocols/aacp/workflows/payroll.ts';
import { InputError } from '../../../src/util/input-error.ts';
import { makeTempDir } from '../../helpers/temp.ts';

const tmp = () => makeTempDir('aacp-');
const JOURNAL = (month: string, amount: string) => `Post the ${month} payroll accrual journal of ${amount} to the general ledger.`;

function setup(path?: string) {
  const llm = new StandInLlmEncoder();
  const registry = path ? AacpRegistry.open(path) : AacpRegistry.inMemory();
  return { llm, registry, enc: new FallbackEncoder({ registry, llm }) };
}

describe('three-tier fallback encoder', () => {
  it('Tier 3: a novel instruction goes to the LLM encoder once, is counted, costed and logged', async () => {
    const { llm, registry, enc } = setup();
    const r = await enc.encode(JOURNAL('August 2024', '£12,500'));
    expect(r.tier).toBe('llm');
    expect(r.costUsd).toBe(0.0006);
    expect(r.packet).toBe('PROC|FIN|return:HR-Agent|p:2|aacp:1.1|res:payroll_accrual|period:2024-08|amt:12500|ccy:GBP');
    expect(llm.calls).toBe(1);
    expect(llm.projectedCostUsd).toBeCloseTo(0.0006, 10);
    expect(registry.size).toBe(1);
    expect(registry.entries()[0]!.template?.text).toBe(
      'PROC|FIN|return:HR-Agent|p:2|aacp:1.1|res:payroll_accrual|period:{period}|amt:{amt}|ccy:{ccy}',
    );
  });

  it('Tier 1: the same instruction (after normalisation) is served from the hash cache and times_seen counts it', async () => {
    const { llm, registry, enc } = setup();
    const first = await enc.encode(JOURNAL('August 2024', '£12,500'));
    const again = await enc.encode(`  post THE August 2024 payroll   accrual journal of £12,500 to the general ledger.`);
    expect(again.tier).toBe('hash');
    expect(again.costUsd).toBe(0);
    expect(again.packet).toBe(first.packet);
    expect(llm.calls).toBe(1);
    expect(registry.entries()[0]!.times_seen).toBe(2);
    expect(instructionHash('A  b')).toBe(instructionHash('a b'));
    expect(normaliseInstruction(' A\tB ')).toBe('a b');
  });

  it('Tier 2 (built-in): a known payroll instruction routes to the rule-based encoder with its own period, no LLM call', async () => {
    const { llm, enc } = setup();
    for (const hop of ['fetch-employees', 'fetch-budgets', 'merge-calculate', 'generate-report', 'log-run', 'send-report'] as const) {
      const r = await enc.encode(payrollInstruction(hop, { period: '2025-03' }));
      expect(r.tier).toBe('pattern-builtin');
      expect(r.source).toBe(`payroll/${hop}`);
      expect(r.packet).toBe(encodePayrollHop(hop, { period: '2025-03' }));
    }
    expect(llm.calls).toBe(0);
  });

  it('Tier 2 (registry): a repeat of a logged pattern with another month and amount is re-filled, not stale', async () => {
    const { llm, enc } = setup();
    await enc.encode(JOURNAL('August 2024', '£12,500'));
    const r = await enc.encode(JOURNAL('September 2024', '£13,150'));
    expect(r.tier).toBe('pattern-registry');
    expect(r.packet).toBe('PROC|FIN|return:HR-Agent|p:2|aacp:1.1|res:payroll_accrual|period:2024-09|amt:13150|ccy:GBP');
    expect(r.packet).not.toContain('2024-08');
    expect(r.packet).not.toContain('12500');
    expect(llm.calls).toBe(1);
  });

  it('stale-value protection: the reference SDK behaviour (cached packet as is) would have served last month', async () => {
    const registry = AacpRegistry.inMemory();
    const sdkLike = new FallbackEncoder({ registry, llm: new StandInLlmEncoder(), staleSafe: false });
    await sdkLike.encode(JOURNAL('August 2024', '£12,500'));
    const stale = await sdkLike.encode(JOURNAL('September 2024', '£13,150'));
    expect(stale.tier).toBe('pattern-registry');
    expect(stale.packet).toContain('period:2024-08'); // the weakness the safe tier avoids
    expect(stale.packet).toContain('amt:12500');
  });

  it('stale-value protection: the pattern tier misses rather than serve a packet it cannot re-fill', async () => {
    const { llm, enc } = setup();
    await enc.encode(JOURNAL('August 2024', '£12,500'));
    // Same words but no amount: the entry's {amt} cannot be filled from this instruction.
    const noAmount = await enc.encode('Post the September 2024 payroll accrual journal to the general ledger.');
    expect(noAmount.tier).toBe('llm');
    expect(noAmount.packet).not.toContain('12500');
    // Similar words (keyword overlap 0.75) but a word the packet copied from the old instruction
    // ("holiday") is absent: the entry does not apply, so it misses instead of serving holiday_accrual.
    await enc.encode('Export the holiday accrual balances for August 2024 as CSV.');
    const other = await enc.encode('Export the sickness accrual balances for September 2024 as CSV.');
    expect(other.tier).toBe('llm');
    expect(other.packet).toBe('FETCH|HR|return:HR-Agent|p:2|aacp:1.1|res:sickness_accrual|period:2024-09|fmt:csv');
    expect(llm.calls).toBe(4);
  });

  it('document references are variables too: re-filled from the new instruction', async () => {
    const { llm, enc } = setup();
    await enc.encode('Reverse the payroll accrual journal PO-1001 in the ledger.');
    const r = await enc.encode('Reverse the payroll accrual journal PO-2002 in the ledger.');
    expect(r.tier).toBe('pattern-registry');
    expect(r.packet).toContain('filter:ref=PO-2002');
    expect(r.packet).not.toContain('PO-1001');
    expect(llm.calls).toBe(1);
  });

  it('an instruction below the keyword threshold is not matched to an unrelated pattern', async () => {
    const { llm, enc } = setup();
    await enc.encode(JOURNAL('August 2024', '£12,500'));
    const r = await enc.encode('Remind all line managers to approve their outstanding timesheets before the payroll cut-off.');
    expect(r.tier).toBe('llm');
    expect(llm.calls).toBe(2);
  });

  it('an invalid packet from the LLM tier is rejected before transmission and never logged', async () => {
    const bad: LlmPacketEncoder = { name: 'broken', standIn: true, costPerCallUsd: 0, encode: async () => 'FETCH|HR|p:1' };
    const registry = AacpRegistry.inMemory();
    const enc = new FallbackEncoder({ registry, llm: bad });
    await expect(enc.encode('Something nobody has asked before.')).rejects.toThrow(AacpValidationError);
    expect(registry.size).toBe(0);
  });
});

describe('registry persistence', () => {
  it('persists entries, template and times_seen to JSON and reloads them', async () => {
    const path = join(tmp(), 'registry.json');
    const a = setup(path);
    await a.enc.encode(JOURNAL('August 2024', '£12,500'));
    await a.enc.encode(JOURNAL('August 2024', '£12,500'));
    const onDisk = JSON.parse(readFileSync(path, 'utf8'));
    expect(onDisk.format).toBe('tooltax-aacp-registry');
    expect(onDisk.entries[0].times_seen).toBe(2);

    const b = setup(path);
    expect(b.registry.size).toBe(1);
    const r = await b.enc.encode(JOURNAL('October 2024', '£9,000'));
    expect(r.tier).toBe('pattern-registry');
    expect(r.packet).toContain('period:2024-10|amt:9000');
    expect(b.llm.calls).toBe(0);
    const third = await b.enc.encode(JOURNAL('August 2024', '£12,500'));
    expect(third.tier).toBe('hash');
    expect(JSON.parse(readFileSync(path, 'utf8')).entries[0].times_seen).toBe(3);
  });

  it('a corrupt registry file gives a clear error and is not overwritten', () => {
    const path = join(tmp(), 'registry.json');
    writeFileSync(path, '{"format":"tooltax-aacp-registry","version":1,"entries":[{"hash":');
    const before = readFileSync(path, 'utf8');
    expect(() => AacpRegistry.open(path)).toThrow(InputError);
    expect(() => AacpRegistry.open(path)).toThrow(new RegExp(`${path}: at \\(root\\): expected valid JSON`));
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('a registry of the wrong shape names the JSON path and what was expected, and is left as it is', () => {
    const path = join(tmp(), 'registry.json');
    const text = JSON.stringify({
      format: 'tooltax-aacp-registry',
      version: 1,
      entries: [
        {
          hash: 'a'.repeat(64),
          english: 'x',
          normalised: 'x',
          domain: 'HR',
          packet: 'p',
          encoder: 'e',
          keywords: [],
          times_seen: 'two',
          pattern_hits: 0,
        },
      ],
    });
    writeFileSync(path, text);
    let err: InputError | undefined;
    try {
      AacpRegistry.open(path);
    } catch (e) {
      err = e as InputError;
    }
    expect(err).toBeInstanceOf(InputError);
    expect(err!.path).toBe('entries[0].times_seen');
    expect(err!.expected).toBe('a non-negative integer');
    expect(err!.file).toBe(path);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('a foreign JSON file is refused by its format tag', () => {
    const path = join(tmp(), 'registry.json');
    writeFileSync(path, '[]');
    expect(() => AacpRegistry.open(path)).toThrow(/expected an object with format "tooltax-aacp-registry"/);
    expect(readFileSync(path, 'utf8')).toBe('[]');
  });
});
