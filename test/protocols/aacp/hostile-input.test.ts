import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodePacket } from '../../../src/protocols/aacp/decoder.ts';
import { FallbackEncoder } from '../../../src/protocols/aacp/fallback.ts';
import { StandInLlmEncoder } from '../../../src/protocols/aacp/llm-encoder.ts';
import {
  AacpRegistry,
  instructionHash,
  normaliseInstruction,
  REGISTRY_FORMAT,
  REGISTRY_VERSION,
} from '../../../src/protocols/aacp/registry.ts';
import { AacpValidationError } from '../../../src/protocols/aacp/validator.ts';
import { InputError } from '../../../src/util/input-error.ts';
import { makeTempDir } from '../../helpers/temp.ts';

/** Names that a plain-object lookup would find on Object.prototype. */
const PROTO_WORDS = ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty', 'isPrototypeOf', 'toLocaleString'];
const WORDS = [
  ...PROTO_WORDS,
  'pay',
  'the',
  'invoice',
  'post',
  'payroll',
  'send',
  'report',
  'review',
  'contract',
  'urgent',
  '£1,200',
  'August',
  '2024',
  'INV-42',
  'csv',
  'to',
  'of',
];
const instruction = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }), {
    minLength: 1,
    maxLength: 14,
  })
  .map((w) => w.join(' '));

const SEED = 42;

describe('AACP on hostile input', () => {
  it('encodes an instruction where "constructor" comes before a verb', async () => {
    const enc = new FallbackEncoder({ registry: AacpRegistry.inMemory(), llm: new StandInLlmEncoder() });
    const r = await enc.encode('Pay the constructor invoice INV-42 of £1,200 by Friday.');
    expect(r.packet).toMatch(/^[A-Z]+\|[A-Z]+\|/);
  });

  it('decodes fields named like Object.prototype members as unknown fields, never as native code', () => {
    for (const name of PROTO_WORDS) {
      const text = decodePacket(`${name}|${name}|return:HR-Agent|p:${name}|aacp:1.1|${name}:x`);
      expect(text).not.toContain('[native code]');
      expect(text).toContain(`unrecognised task "${name}"`);
      expect(text).toContain(`field "${name}": x`);
    }
  });

  it('fuzz: the fallback encoder answers every instruction with a packet or a validation error, and the decoder never throws', async () => {
    await fc.assert(
      fc.asyncProperty(instruction, async (english) => {
        const enc = new FallbackEncoder({ registry: AacpRegistry.inMemory(), llm: new StandInLlmEncoder() });
        try {
          const r = await enc.encode(english);
          expect(typeof r.packet).toBe('string');
          expect(decodePacket(r.packet)).not.toContain('[native code]');
        } catch (err) {
          expect(err).toBeInstanceOf(AacpValidationError);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        expect(typeof decodePacket(text)).toBe('string');
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  const entry = (english: string, packet = 'PROC|FIN|return:HR-Agent|p:2|aacp:1.1|res:payroll') => ({
    hash: instructionHash(english),
    english,
    normalised: normaliseInstruction(english),
    domain: 'FIN',
    keywords: ['payroll'],
    packet,
    encoder: 'StandInLlmEncoder',
    times_seen: 1,
    pattern_hits: 0,
  });
  const writeRegistry = (entries: unknown): string => {
    const file = join(makeTempDir(), 'registry.json');
    writeFileSync(file, JSON.stringify({ format: REGISTRY_FORMAT, version: REGISTRY_VERSION, entries }));
    return file;
  };

  it('refuses a registry entry whose hash is not that of its text, or whose packet is invalid', () => {
    const good = entry('Post the payroll journal.');
    expect(AacpRegistry.open(writeRegistry([good])).size).toBe(1);
    const wrongHash = { ...good, hash: instructionHash('Pay everyone twice.') };
    expect(() => AacpRegistry.open(writeRegistry([wrongHash]))).toThrow(
      /entries\[0\]\.hash: expected the SHA-256 of the normalised "english"/,
    );
    const badPacket = entry('Post the payroll journal.', 'NOT A PACKET');
    expect(() => AacpRegistry.open(writeRegistry([badPacket]))).toThrow(/entries\[0\]\.packet: expected a valid AACP packet/);
  });

  it('fuzz: the registry loader either loads or refuses with an InputError', () => {
    const value = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.constant(null), fc.constantFrom(...PROTO_WORDS));
    const mutated = fc.record({
      key: fc.constantFrom(
        'hash',
        'english',
        'normalised',
        'domain',
        'keywords',
        'packet',
        'template',
        'times_seen',
        '__proto__',
        'constructor',
      ),
      value,
    });
    fc.assert(
      fc.property(instruction, mutated, (english, { key, value: v }) => {
        const e: Record<string, unknown> = { ...entry(english) };
        Object.defineProperty(e, key, { value: v, enumerable: true, configurable: true, writable: true });
        const file = writeRegistry([e]);
        try {
          const r = AacpRegistry.open(file);
          expect(r.size).toBe(1);
        } catch (err) {
          expect(err).toBeInstanceOf(InputError);
          expect((err as Error).message.split('\n')).toHaveLength(1);
        }
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});
