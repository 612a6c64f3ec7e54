import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AacpFormatError,
  buildPacket,
  parsePacket,
  parsePacketLenient,
  serialisePacket,
  type AacpPacket,
} from '../../../src/protocols/aacp/packet.ts';

describe('AACP packet parse / serialise', () => {
  it('parses positional TASK and DOM and named fields in order, splitting at the first colon', () => {
    const p = parsePacket('REPORT|HR|return:HR-Agent|p:2|aacp:1.1|src_prev:pay://run/2024-07');
    expect(p.task).toBe('REPORT');
    expect(p.dom).toBe('HR');
    expect(p.fields).toEqual([
      { key: 'return', value: 'HR-Agent' },
      { key: 'p', value: '2' },
      { key: 'aacp', value: '1.1' },
      { key: 'src_prev', value: 'pay://run/2024-07' },
    ]);
  });

  it('keeps duplicate keys rather than silently dropping one', () => {
    expect(parsePacket('LOG|HR|return:A|aacp:1.1|flags:x|flags:y').fields.filter((f) => f.key === 'flags')).toHaveLength(2);
  });

  it('refuses to serialise what v1.1 cannot carry (no escaping is defined)', () => {
    const base: AacpPacket = { task: 'FETCH', dom: 'HR', fields: [{ key: 'return', value: 'A' }] };
    expect(() => serialisePacket({ ...base, fields: [{ key: 'res', value: 'a|b' }] })).toThrow(AacpFormatError);
    expect(() => serialisePacket({ ...base, fields: [{ key: 'a:b', value: 'x' }] })).toThrow(AacpFormatError);
    expect(() => serialisePacket({ ...base, fields: [{ key: '', value: 'x' }] })).toThrow(AacpFormatError);
    expect(() => serialisePacket({ ...base, task: '' })).toThrow(/empty slots/);
    expect(() => serialisePacket({ ...base, dom: 'H|R' })).toThrow(AacpFormatError);
  });

  it('strict parse rejects empty slots and unnamed fields; lenient parse reports them', () => {
    expect(() => parsePacket('FETCH|HR||return:A|aacp:1.1')).toThrow(/empty-slot/);
    expect(() => parsePacket('FETCH|HR|HR-Agent|aacp:1.1')).toThrow(/unnamed-field/);
    expect(parsePacketLenient('FETCH|HR||x|:y').issues.map((i) => i.kind)).toEqual(['empty-slot', 'unnamed-field', 'empty-key']);
  });

  it('buildPacket writes the draft canonical order: return, p, aacp, core fields, extended fields', () => {
    const text = serialisePacket(
      buildPacket({
        task: 'FETCH',
        dom: 'HR',
        return: 'X',
        p: '1',
        fmt: 'json',
        res: 'r',
        extended: [
          ['amt', '5'],
          ['ccy', undefined],
        ],
      }),
    );
    expect(text).toBe('FETCH|HR|return:X|p:1|aacp:1.1|res:r|fmt:json|amt:5');
  });

  const atom = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !s.includes('|'));
  const key = atom.filter((s) => !s.includes(':'));
  const packetArb = fc.record({
    task: atom,
    dom: atom,
    fields: fc.array(fc.record({ key, value: fc.string({ maxLength: 12 }).filter((s) => !s.includes('|')) }), { maxLength: 8 }),
  });

  it('round trip: parse(serialise(p)) equals p for every representable packet', () => {
    fc.assert(
      fc.property(packetArb, (p) => {
        expect(parsePacket(serialisePacket(p))).toEqual(p);
      }),
      { numRuns: 300 },
    );
  });

  it('round trip: serialise(parse(s)) reproduces every well-formed text byte for byte', () => {
    fc.assert(
      fc.property(packetArb, (p) => {
        const s = serialisePacket(p);
        expect(serialisePacket(parsePacket(s))).toBe(s);
      }),
      { numRuns: 300 },
    );
  });
});
