import type { KeyDefinition, SchemaTemplate, SchemaUpdateSuggestion } from './types.ts';

/**
 * Client side of a schema update suggestion (§3.2 step 6, Appendix A.2 Figure 9): new keys are
 * added, modified keys may only refine the semantic description (and flags) — a suggestion
 * that would retype or make required an existing key is refused (§6.2.2: base keys "MUST NOT
 * be removed or have their types changed").
 */

export interface AppliedUpdate {
  template: SchemaTemplate;
  added: string[];
  refined: string[];
  refused: { key_name: string; reason: string }[];
}

export function applyUpdateSuggestion(template: SchemaTemplate, s: SchemaUpdateSuggestion): AppliedUpdate {
  const keys: KeyDefinition[] = template.keys.map((k) => ({ ...k }));
  const byName = new Map(keys.map((k) => [k.key_name, k]));
  const added: string[] = [];
  const refined: string[] = [];
  const refused: AppliedUpdate['refused'] = [];
  for (const k of s.new_keys ?? []) {
    if (byName.has(k.key_name)) {
      refused.push({ key_name: k.key_name, reason: 'new key collides with an existing key' });
      continue;
    }
    if (k.required) {
      refused.push({ key_name: k.key_name, reason: 'a new key cannot be required: existing clients would break' });
      continue;
    }
    const copy = { ...k };
    // Keep "other" last, as every template in the draft has it.
    const otherAt = keys.findIndex((x) => x.key_name === 'other');
    keys.splice(otherAt >= 0 ? otherAt : keys.length, 0, copy);
    byName.set(k.key_name, copy);
    added.push(k.key_name);
  }
  for (const k of s.modified_keys ?? []) {
    const cur = byName.get(k.key_name);
    if (!cur) {
      refused.push({ key_name: k.key_name, reason: 'modified key does not exist' });
      continue;
    }
    if (cur.key_type !== k.key_type || cur.required !== k.required) {
      refused.push({ key_name: k.key_name, reason: 'a modification may not change key_type or required' });
      continue;
    }
    cur.semantic_description = k.semantic_description;
    if (k.experimental !== undefined) cur.experimental = k.experimental;
    if (k.deprecated !== undefined) cur.deprecated = k.deprecated;
    refined.push(k.key_name);
  }
  return { template: { ...template, keys }, added, refined, refused };
}
