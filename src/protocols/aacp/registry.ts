import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { toStableJson, writeFileAtomic } from '../../util/files.ts';
import { describeValue, InputError, jsonParseReason } from '../../util/input-error.ts';
import type { PacketTemplate } from './template.ts';
import { validatePacket } from './validator.ts';

/**
 * The local registry of LLM-encoded instructions (draft §2, §6.3): looked up by the SHA-256 of
 * the normalised instruction (Tier 1) and by keywords (Tier 2). It lives in one JSON file,
 * rewritten atomically after each change. A file that does not parse or has the wrong shape
 * stops the run with an InputError naming the file and what was expected, and is never
 * overwritten: this object refuses to exist rather than start empty over someone's data.
 */

export const REGISTRY_FORMAT = 'tooltax-aacp-registry';
export const REGISTRY_VERSION = 1;

export interface RegistryEntry {
  /** SHA-256 (hex) of the normalised instruction. */
  hash: string;
  english: string;
  normalised: string;
  domain: string;
  keywords: string[];
  packet: string;
  /** Absent when the packet could not be templated: then only exact (Tier 1) hits use it. */
  template?: PacketTemplate;
  /** Who encoded it, e.g. `StandInLlmEncoder`. */
  encoder: string;
  times_seen: number;
  pattern_hits: number;
}

interface RegistryFile {
  format: string;
  version: number;
  entries: RegistryEntry[];
}

/** Normalisation before hashing: Unicode NFKC, lower case, runs of white space collapsed. */
export function normaliseInstruction(english: string): string {
  return english.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function instructionHash(english: string): string {
  return createHash('sha256').update(normaliseInstruction(english), 'utf8').digest('hex');
}

function expect(cond: boolean, file: string, path: string, expected: string, value: unknown): asserts cond {
  if (!cond) throw new InputError(file, path, expected, describeValue(value));
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function checkTemplate(file: string, path: string, t: unknown): void {
  expect(typeof t === 'object' && t !== null && !Array.isArray(t), file, path, 'a template object', t);
  const o = t as Record<string, unknown>;
  expect(typeof o.text === 'string', file, `${path}.text`, 'a string', o.text);
  for (const k of ['placeholders', 'kinds', 'anchors'] as const)
    expect(isStringArray(o[k]), file, `${path}.${k}`, 'an array of strings', o[k]);
}

function checkEntry(file: string, path: string, e: unknown): RegistryEntry {
  expect(typeof e === 'object' && e !== null && !Array.isArray(e), file, path, 'a registry entry object', e);
  const o = e as Record<string, unknown>;
  expect(typeof o.hash === 'string' && /^[0-9a-f]{64}$/.test(o.hash), file, `${path}.hash`, 'a SHA-256 hex string (64 characters)', o.hash);
  for (const k of ['english', 'normalised', 'domain', 'packet', 'encoder'] as const)
    expect(typeof o[k] === 'string', file, `${path}.${k}`, 'a string', o[k]);
  expect(isStringArray(o.keywords), file, `${path}.keywords`, 'an array of strings', o.keywords);
  for (const k of ['times_seen', 'pattern_hits'] as const) {
    expect(Number.isInteger(o[k]) && (o[k] as number) >= 0, file, `${path}.${k}`, 'a non-negative integer', o[k]);
  }
  if (o.template !== undefined) checkTemplate(file, `${path}.template`, o.template);
  // The entry must be what `add` would have written: its hash that of its own text (else a hash
  // hit would serve this packet for another instruction), and a packet that may be sent.
  const english = o.english as string;
  expect(o.hash === instructionHash(english), file, `${path}.hash`, 'the SHA-256 of the normalised "english" of the entry', o.hash);
  expect(o.normalised === normaliseInstruction(english), file, `${path}.normalised`, 'the normalised "english" of the entry', o.normalised);
  const validation = validatePacket(o.packet as string);
  expect(
    validation.valid,
    file,
    `${path}.packet`,
    `a valid AACP packet (${validation.errors.map((e) => e.rule).join(', ')} failed)`,
    o.packet,
  );
  return o as unknown as RegistryEntry;
}

function parseRegistry(file: string, text: string): RegistryEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new InputError(
      file,
      '',
      `valid JSON (an AACP registry written by tooltax, format "${REGISTRY_FORMAT}")`,
      `unparsable text (${jsonParseReason(err)})`,
    );
  }
  expect(typeof data === 'object' && data !== null && !Array.isArray(data), file, '', `an object with format "${REGISTRY_FORMAT}"`, data);
  const o = data as Record<string, unknown>;
  expect(o.format === REGISTRY_FORMAT, file, 'format', `the string "${REGISTRY_FORMAT}"`, o.format);
  expect(o.version === REGISTRY_VERSION, file, 'version', `${REGISTRY_VERSION}`, o.version);
  expect(Array.isArray(o.entries), file, 'entries', 'an array of registry entries', o.entries);
  const entries = (o.entries as unknown[]).map((e, i) => checkEntry(file, `entries[${i}]`, e));
  const seen = new Set<string>();
  entries.forEach((e, i) => {
    expect(!seen.has(e.hash), file, `entries[${i}].hash`, 'a hash not used by an earlier entry', e.hash);
    seen.add(e.hash);
  });
  return entries;
}

export class AacpRegistry {
  private readonly byHash = new Map<string, RegistryEntry>();

  private constructor(
    /** undefined: in memory only (tests, throw-away runs). */
    readonly path: string | undefined,
    entries: RegistryEntry[],
  ) {
    for (const e of entries) this.byHash.set(e.hash, e);
  }

  /** Load the registry at `path`, or start an empty one if the file does not exist yet. */
  static open(path: string): AacpRegistry {
    const entries = existsSync(path) ? parseRegistry(path, readFileSync(path, 'utf8')) : [];
    return new AacpRegistry(path, entries);
  }

  static inMemory(): AacpRegistry {
    return new AacpRegistry(undefined, []);
  }

  get size(): number {
    return this.byHash.size;
  }

  entries(): RegistryEntry[] {
    return [...this.byHash.values()];
  }

  /** Tier 1: exact match; counts the sighting (times_seen) and persists it. */
  hit(english: string): RegistryEntry | undefined {
    const entry = this.byHash.get(instructionHash(english));
    if (!entry) return undefined;
    entry.times_seen++;
    this.save();
    return entry;
  }

  recordPatternHit(entry: RegistryEntry): void {
    entry.pattern_hits++;
    this.save();
  }

  /** Log an LLM-encoded instruction (draft §6.3 Tier 3). An existing hash is kept, not duplicated. */
  add(entry: Omit<RegistryEntry, 'hash' | 'normalised' | 'times_seen' | 'pattern_hits'>): RegistryEntry {
    const hash = instructionHash(entry.english);
    const existing = this.byHash.get(hash);
    if (existing) return existing;
    const full: RegistryEntry = { hash, normalised: normaliseInstruction(entry.english), ...entry, times_seen: 1, pattern_hits: 0 };
    this.byHash.set(hash, full);
    this.save();
    return full;
  }

  save(): void {
    if (this.path === undefined) return;
    const file: RegistryFile = { format: REGISTRY_FORMAT, version: REGISTRY_VERSION, entries: this.entries() };
    writeFileAtomic(this.path, toStableJson(file));
  }
}
