import { describe, expect, it } from 'vitest';
import { DRAFT_EXAMPLE_PACKETS } from '../../../src/protocols/aacp/examples.ts';
import { AacpValidationError, assertTransmittable, validatePacket } from '../../../src/protocols/aacp/validator.ts';

const OK = 'FETCH|HR|return:HR-Agent|p:1|aacp:1.1|res:emp_salary';
const errorRules = (t: string) => validatePacket(t).errors.map((e) => e.rule);
const warningRules = (t: string) => validatePacket(t).warnings.map((w) => w.rule);

describe('AACP validator — MUST rules (errors, block transmission)', () => {
  it('a clean packet has no errors and no warnings', () => {
    expect(validatePacket(OK)).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it('MUST: Field 0 (TASK) is present', () => {
    expect(errorRules('|HR|return:HR-Agent|p:1|aacp:1.1')).toEqual(['task-missing']);
  });

  it('MUST: Field 1 (DOM) is present', () => {
    expect(errorRules('FETCH||return:HR-Agent|p:1|aacp:1.1')).toEqual(['dom-missing']);
    expect(errorRules('FETCH')).toEqual(expect.arrayContaining(['dom-missing']));
  });

  it('MUST: a return: field is present and non-empty', () => {
    expect(errorRules('FETCH|HR|p:1|aacp:1.1')).toEqual(['return-missing']);
    expect(errorRules('FETCH|HR|return:|p:1|aacp:1.1')).toEqual(['return-missing']);
  });

  it('MUST: an aacp: field is present (and names a version, §14)', () => {
    expect(errorRules('FETCH|HR|return:HR-Agent|p:1')).toEqual(['aacp-missing']);
    expect(errorRules('FETCH|HR|return:HR-Agent|p:1|aacp:')).toEqual(['aacp-missing']);
  });

  it('MUST (§4): empty slots do not appear', () => {
    expect(errorRules('FETCH|HR|return:HR-Agent||p:1|aacp:1.1')).toEqual(['empty-slot']);
  });

  it('MUST (§4): every field after DOM is a named key:value pair', () => {
    expect(errorRules('FETCH|HR|return:HR-Agent|p:1|aacp:1.1|emp_salary')).toEqual(['unnamed-field']);
  });

  it('errors block transmission: assertTransmittable throws with the rules', () => {
    expect(() => assertTransmittable('FETCH|HR|p:1')).toThrow(AacpValidationError);
    try {
      assertTransmittable('FETCH|HR|p:1');
    } catch (e) {
      expect((e as AacpValidationError).errors.map((x) => x.rule)).toEqual(['return-missing', 'aacp-missing']);
    }
  });
});

describe('AACP validator — SHOULD rules (warnings, never block)', () => {
  const cases: [string, string, string][] = [
    ['unrecognised TASK', 'ESCALATE|HR|return:A|p:1|aacp:1.1', 'task-unknown'],
    ['unrecognised DOM', 'FETCH|OPS|return:A|p:1|aacp:1.1', 'dom-unknown'],
    ['missing p:', 'FETCH|HR|return:A|aacp:1.1', 'p-missing'],
    ['p: outside 1-3 (§5.3)', 'FETCH|HR|return:A|p:7|aacp:1.1', 'p-invalid'],
    ['version mismatch', 'FETCH|HR|return:A|p:1|aacp:1.0', 'version-mismatch'],
    ['sentiment: without tone:', 'RESOLVE|CS|return:A|p:1|aacp:1.1|sentiment:angry', 'sentiment-without-tone'],
    ['ltv: without ccy:', 'FLAG|SALES|return:A|p:1|aacp:1.1|ltv:12000', 'ltv-without-ccy'],
    ['unknown extended key', 'FETCH|HR|return:A|p:1|aacp:1.1|org_costcode:77', 'unknown-key'],
  ];
  for (const [name, packet, rule] of cases) {
    it(`SHOULD warn: ${name} — and the packet is still transmittable`, () => {
      const r = validatePacket(packet);
      expect(r.valid).toBe(true);
      expect(r.errors).toEqual([]);
      expect(r.warnings.map((w) => w.rule)).toEqual([rule]);
      expect(assertTransmittable(packet).map((w) => w.rule)).toEqual([rule]);
    });
  }

  it('companion fields silence the companion warnings', () => {
    expect(warningRules('RESOLVE|CS|return:A|p:1|aacp:1.1|sentiment:angry|tone:empathetic')).toEqual([]);
    expect(warningRules('FLAG|SALES|return:A|p:1|aacp:1.1|ltv:12000|ccy:GBP')).toEqual([]);
  });

  it('every example packet of the draft (§4.4) is valid without warnings', () => {
    for (const p of Object.values(DRAFT_EXAMPLE_PACKETS)) expect(validatePacket(p)).toEqual({ valid: true, errors: [], warnings: [] });
  });
});
