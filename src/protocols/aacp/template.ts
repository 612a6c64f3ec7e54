import { parsePacket, serialisePacket, type AacpPacket } from './packet.ts';
import type { InstructionVariables } from './variables.ts';

/**
 * A cached packet turned into a template: the values that came from the instruction's
 * variables become placeholders ({period}, {amt}...), so the pattern tier can re-fill them from
 * a new instruction. Two further guards keep stale content out:
 *  - anchors: words and numbers the packet copied from the ORIGINAL instruction (not bound to
 *    a variable) must also appear in the new one, or the entry does not apply;
 *  - kinds: the new instruction must carry the same kinds of variable as the original.
 */

export interface PacketTemplate {
  /** Serialised packet with {name} placeholders. */
  text: string;
  /** Placeholder names used. */
  placeholders: string[];
  /** Variable kinds the original instruction carried (prev_period excluded). */
  kinds: string[];
  /** Lower-case tokens copied from the original instruction that a new instruction must contain. */
  anchors: string[];
}

// Routing metadata is not content copied from the instruction.
const ADMIN_KEYS = new Set(['return', 'p', 'aacp']);

function tokensOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Returns undefined when the packet cannot be templated (a value contains a brace). */
export function makeTemplate(packetText: string, english: string, vars: InstructionVariables): PacketTemplate | undefined {
  const packet = parsePacket(packetText);
  if (packet.fields.some((f) => /[{}]/.test(f.value))) return undefined;
  // Longest values first so "2024-08" is bound before a shorter value could split it.
  const bindings = Object.entries(vars.values).sort((a, b) => b[1].length - a[1].length);
  const placeholders = new Set<string>();
  const englishTokens = new Set(tokensOf(english));
  const anchors = new Set<string>();
  const fields = packet.fields.map((f) => {
    if (ADMIN_KEYS.has(f.key)) return f;
    let value = f.value;
    for (const [name, v] of bindings) {
      const re = new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(v)}(?![A-Za-z0-9])`, 'g');
      if (re.test(value)) {
        value = value.replace(re, `{${name}}`);
        placeholders.add(name);
      }
    }
    for (const t of tokensOf(value.replace(/\{[a-z_0-9]+\}/g, ' '))) if (englishTokens.has(t)) anchors.add(t);
    return { key: f.key, value };
  });
  const text = serialisePacket({ task: packet.task, dom: packet.dom, fields } satisfies AacpPacket);
  return { text, placeholders: [...placeholders], kinds: [...vars.kinds].sort(), anchors: [...anchors] };
}

export type FillResult = { ok: true; packet: string } | { ok: false; reason: string };

/** Fill a template from a new instruction, or say why it does not apply. */
export function fillTemplate(t: PacketTemplate, english: string, vars: InstructionVariables): FillResult {
  const kinds = [...vars.kinds].sort();
  if (kinds.join(',') !== t.kinds.join(','))
    return { ok: false, reason: `variable kinds differ (${kinds.join(',') || 'none'} vs ${t.kinds.join(',') || 'none'})` };
  const have = new Set(tokensOf(english));
  const missing = t.anchors.filter((a) => !have.has(a));
  if (missing.length > 0) return { ok: false, reason: `instruction lacks ${missing.join(', ')}` };
  let text = t.text;
  for (const name of t.placeholders) {
    const v = Object.hasOwn(vars.values, name) ? vars.values[name] : undefined;
    if (v === undefined) return { ok: false, reason: `no value for {${name}}` };
    text = text.replaceAll(`{${name}}`, v);
  }
  return { ok: true, packet: text };
}
