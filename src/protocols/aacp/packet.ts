import { AACP_VERSION, CORE_KEYS } from './vocabulary.ts';

/**
 * The AACP v1.1 packet model (draft §4): `TASK|DOM|key:value|key:value...`.
 *
 * The draft defines NO escaping or quoting: the pipe is always a separator and a named field
 * splits at its first colon. So a value may contain ':' (e.g. `src_prev:pay://run/2024-07`) but
 * never '|', and a key may contain neither. The serialiser refuses what the format cannot carry
 * instead of inventing an escape other implementations would not read.
 */

export interface AacpField {
  key: string;
  value: string;
}

export interface AacpPacket {
  task: string;
  dom: string;
  /** Named fields in wire order (duplicates are kept: the draft does not forbid them). */
  fields: AacpField[];
}

export class AacpFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AacpFormatError';
  }
}

/** A structural problem found while splitting a packet (the validator reports these). */
export interface StructuralIssue {
  /** Index of the pipe-separated segment, 0-based. */
  index: number;
  segment: string;
  kind: 'empty-slot' | 'unnamed-field' | 'empty-key';
}

export interface LenientParse {
  packet: AacpPacket;
  issues: StructuralIssue[];
  /** Number of pipe-separated segments in the text. */
  segments: number;
}

/** Split a packet without throwing, so the validator can report every problem at once. */
export function parsePacketLenient(text: string): LenientParse {
  const parts = text.split('|');
  const issues: StructuralIssue[] = [];
  const fields: AacpField[] = [];
  parts.forEach((segment, index) => {
    if (index < 2) {
      if (segment === '') issues.push({ index, segment, kind: 'empty-slot' });
      return;
    }
    if (segment === '') {
      issues.push({ index, segment, kind: 'empty-slot' });
      return;
    }
    const colon = segment.indexOf(':');
    if (colon < 0) {
      issues.push({ index, segment, kind: 'unnamed-field' });
      return;
    }
    if (colon === 0) {
      issues.push({ index, segment, kind: 'empty-key' });
      return;
    }
    fields.push({ key: segment.slice(0, colon), value: segment.slice(colon + 1) });
  });
  return { packet: { task: parts[0] ?? '', dom: parts[1] ?? '', fields }, issues, segments: parts.length };
}

/** Parse a packet; throws AacpFormatError on any structural issue. */
export function parsePacket(text: string): AacpPacket {
  const { packet, issues, segments } = parsePacketLenient(text);
  if (segments < 2) throw new AacpFormatError(`packet has ${segments} field(s); TASK|DOM are required (§4)`);
  const first = issues[0];
  if (first) {
    throw new AacpFormatError(`segment ${first.index} (${JSON.stringify(first.segment)}): ${first.kind} (§4)`);
  }
  return packet;
}

function checkAtom(what: string, s: string, allowColon: boolean): void {
  if (s === '') throw new AacpFormatError(`${what} is empty: empty slots MUST NOT appear (§4)`);
  if (s.includes('|')) throw new AacpFormatError(`${what} ${JSON.stringify(s)} contains '|': AACP v1.1 defines no escape for it`);
  if (!allowColon && s.includes(':')) throw new AacpFormatError(`${what} ${JSON.stringify(s)} contains ':'`);
}

/** Serialise a packet exactly: no whitespace added, fields in the given order. */
export function serialisePacket(packet: AacpPacket): string {
  checkAtom('TASK', packet.task, true);
  checkAtom('DOM', packet.dom, true);
  const parts = [packet.task, packet.dom];
  for (const f of packet.fields) {
    checkAtom('key', f.key, false);
    // An empty value would still serialise to "key:", which is not an empty slot; allow it and let
    // the validator judge (e.g. an empty return: is an error there).
    if (f.value.includes('|')) throw new AacpFormatError(`value of ${f.key} contains '|': AACP v1.1 defines no escape for it`);
    parts.push(`${f.key}:${f.value}`);
  }
  return parts.join('|');
}

/** First value of a key, or undefined. */
export function fieldValue(packet: AacpPacket, key: string): string | undefined {
  return packet.fields.find((f) => f.key === key)?.value;
}

export interface PacketSpec {
  task: string;
  dom: string;
  return: string;
  /** Omitted when undefined (then the validator warns, §7). */
  p?: '1' | '2' | '3';
  res?: string;
  period?: string;
  filter?: string;
  fields?: readonly string[];
  fmt?: string;
  /** Extended fields, appended after the core fields in the given order (§4.3). */
  extended?: readonly (readonly [string, string | undefined])[];
}

/**
 * Build a packet in the draft's canonical order, as every §4.4 example has it:
 * return, p, aacp, then res, period, filter, fields, fmt, then extended fields.
 */
export function buildPacket(spec: PacketSpec): AacpPacket {
  const core: Record<(typeof CORE_KEYS)[number], string | undefined> = {
    return: spec.return,
    p: spec.p,
    aacp: AACP_VERSION,
    res: spec.res,
    period: spec.period,
    filter: spec.filter,
    fields: spec.fields && spec.fields.length > 0 ? spec.fields.join(',') : undefined,
    fmt: spec.fmt,
  };
  const fields: AacpField[] = [];
  for (const key of CORE_KEYS) {
    const value = core[key];
    if (value !== undefined) fields.push({ key, value });
  }
  for (const [key, value] of spec.extended ?? []) {
    if (value !== undefined) fields.push({ key, value });
  }
  return { task: spec.task, dom: spec.dom, fields };
}

/** Names in AACP values carry no spaces: the draft writes "ABC Ltd" as ABC-Ltd (§4.4). */
export function nameToken(name: string): string {
  return name.trim().split(/\s+/).join('-');
}

/** Codes are lower snake case: "IP rights restriction" -> ip_rights_restriction (§4.4). */
export function codeToken(text: string): string {
  return text.trim().toLowerCase().split(/\s+/).join('_');
}
