import type { KeyDefinition, KeyType } from './types.ts';

/**
 * Intent induction (§6.2.2): summarise a mature cluster's fragments into a candidate key. The
 * draft allows "an internal LLM or rule-based extractor"; this is the rule-based one, so that
 * runs are reproducible: the name is the cluster's two most frequent content words, the type
 * follows the values the fragments carry, and the description quotes real fragments as
 * mapping examples (which §6.2.2 requires).
 */

export interface KeyInducer {
  induce(fragments: readonly string[]): KeyDefinition;
}

const STOP = new Set(
  'a an the and or of for to in on at with my me i we our please would like want need prefer preferred some any one two kg by near from is be it if possible also'.split(
    ' ',
  ),
);

function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => w.length > 2 && !STOP.has(w));
}

function numbersIn(text: string): number[] {
  return (text.match(/\d+(?:\.\d+)?/g) ?? []).map(Number);
}

export class RuleBasedKeyInducer implements KeyInducer {
  induce(fragments: readonly string[]): KeyDefinition {
    if (fragments.length === 0) throw new Error('cannot induce a key from no fragment');
    // Document frequency, ties broken by first appearance.
    const df = new Map<string, number>();
    const first = new Map<string, number>();
    let order = 0;
    for (const f of fragments) {
      for (const w of new Set(contentWords(f))) {
        df.set(w, (df.get(w) ?? 0) + 1);
        if (!first.has(w)) first.set(w, order++);
      }
    }
    const top = [...df.keys()].sort((a, b) => df.get(b)! - df.get(a)! || first.get(a)! - first.get(b)!).slice(0, 2);
    // Name in the order the words appear in the most common phrasing.
    top.sort((a, b) => first.get(a)! - first.get(b)!);
    const keyName = top.length > 0 ? top.join('_') : 'unnamed_need';

    const withNumbers = fragments.filter((f) => numbersIn(f).length > 0);
    let type: KeyType = 'boolean';
    if (withNumbers.length * 2 >= fragments.length) {
      type = withNumbers.every((f) => numbersIn(f).every(Number.isInteger)) ? 'integer' : 'number';
    }
    const examples = [...new Set(fragments)].slice(0, 3).map((f) => {
      const value = type === 'boolean' ? 'true' : String(numbersIn(f)[0] ?? 0);
      return `'${f}' -> ${value}`;
    });
    return {
      key_name: keyName,
      key_type: type,
      required: false,
      ...(type === 'boolean' ? { default_value: false } : {}),
      semantic_description: `Induced from ${fragments.length} "other" fragments. Example mapping: ${examples.join('; ')}.`,
    };
  }
}
