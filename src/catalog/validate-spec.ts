import { countTokens } from '../tokens/counter.ts';
import { isEntitySlot, slotsIn } from './entities.ts';
import type { ServerSpec } from './spec.ts';

const MAX_SUMMARY_TOKENS = 60;

/** Problems in an authored server spec, as readable lines (empty when it is sound). */
export function validateServerSpec(spec: ServerSpec): string[] {
  const problems: string[] = [];
  const where = (tool: string) => `${spec.server}/${tool}`;
  if (spec.tools.length !== spec.targetToolCount) {
    problems.push(`${spec.server}: ${spec.tools.length} tools, target ${spec.targetToolCount}`);
  }
  const names = new Set<string>();
  for (const t of spec.tools) {
    if (names.has(t.name)) problems.push(`${where(t.name)}: duplicate tool name`);
    names.add(t.name);
    if (!/^[a-z][a-z0-9_]*$/.test(t.name)) problems.push(`${where(t.name)}: name is not snake_case`);
    const summaryTokens = countTokens(t.summary);
    if (summaryTokens > MAX_SUMMARY_TOKENS)
      problems.push(`${where(t.name)}: summary has ${summaryTokens} tokens (max ${MAX_SUMMARY_TOKENS})`);
    for (const r of t.required) if (!Object.hasOwn(t.params, r)) problems.push(`${where(t.name)}: required "${r}" is not a parameter`);
    if (t.intents.length < 3) problems.push(`${where(t.name)}: needs at least 3 intents`);
    for (const text of [...t.intents, ...(t.ambiguousIntents ?? [])]) {
      for (const slot of slotsIn(text)) if (!isEntitySlot(slot)) problems.push(`${where(t.name)}: unknown slot {${slot}} in "${text}"`);
    }
    if (t.tags.length === 0) problems.push(`${where(t.name)}: no tags`);
    if (t.sampleResponse === undefined) problems.push(`${where(t.name)}: no sampleResponse`);
  }
  return problems;
}
