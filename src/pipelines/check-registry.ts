import { checkedRegistry, missingText, RegistryError } from '../util/registry.ts';
import type { PipelineEntry } from './types.ts';

/**
 * A pipeline registry, checked and frozen (../util/registry.ts): ids unique, each entry's id
 * equal to the id of the pipeline it creates (results are filed by the pipeline's id, the
 * command line selects by the entry's), a label and a description, a reference for a published
 * method, codes unique, one baseline, and every `ablationOf` a registered main method. Creating
 * each pipeline once must stay cheap: pipelines build their state in `prepare`, not in `create`.
 * The bench's registry is src/pipelines/registry.ts; tests build their own with this function.
 */
export function checkedPipelineRegistry(entries: readonly PipelineEntry[]): readonly PipelineEntry[] {
  const checked = checkedRegistry('pipeline registry', entries, (e) => e.id, entryProblem);
  const baselines = checked.filter((e) => e.baseline);
  if (baselines.length > 1)
    throw new RegistryError(`pipeline registry: ${baselines.length} baselines (${baselines.map((e) => e.id).join(', ')}); expected one`);
  return checked;
}

function entryProblem(entry: PipelineEntry, all: readonly PipelineEntry[]): string | undefined {
  const described = missingText(entry.description, 'description');
  if (described) return described;
  if (entry.published && missingText(entry.reference, 'reference'))
    return 'a published method without its reference (expected a non-empty reference)';
  const code = entry.code ?? entry.id;
  const sameCode = all.find((other) => other !== entry && (other.code ?? other.id) === code);
  if (sameCode) return `code ${JSON.stringify(code)} also used by ${JSON.stringify(sameCode.id)}`;
  if (entry.ablationOf !== undefined && !all.some((other) => other.id === entry.ablationOf && other.group === 'main' && !other.ablationOf))
    return `ablationOf ${JSON.stringify(entry.ablationOf)} is not a registered main method`;
  const pipeline = entry.create();
  if (pipeline.id !== entry.id) return `creates a pipeline with id ${JSON.stringify(pipeline.id)}; expected the entry's id`;
  return missingText(pipeline.label, 'label');
}
