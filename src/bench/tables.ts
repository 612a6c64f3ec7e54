import { toolBreakdownTable } from '../budget/table.ts';
import { footprintTable } from '../catalog/footprint-table.ts';
import { externalRefWarnings, refSizeTable, refUses } from '../catalog/ref-table.ts';
import type { Encoder } from '../embed/types.ts';
import { runHostMeasures } from '../hosts/measure.ts';
import { comparedProfiles } from '../hosts/registry.ts';
import { hostProfilesTable } from '../measure/host-table.ts';
import { codeModeTable } from '../measure/code-mode-table.ts';
import { mainMeasuredTable } from '../measure/main-table.ts';
import { staticCostTable } from '../measure/static-cost.ts';
import { withRecallGapNotes } from '../table/suite-gap.ts';
import type { PipelineEntry } from '../pipelines/types.ts';
import { retrievalNote } from '../retrieval/settings-note.ts';
import type { Study } from '../studies/types.ts';
import { publishedOnlyFor } from '../table/published-for.ts';
import type { Suite } from '../table/suites.ts';
import type { Table } from '../table/table.ts';
import { overlapTable } from '../tasks/overlap.ts';
import { taskMixTable } from '../tasks/stats.ts';
import { tokenCounter } from '../tokens/counter.ts';
import type { Collected } from './execute/collect.ts';
import type { RunInputs } from './inputs.ts';

/** The tables of the inputs alone: the catalog's footprint and `$ref` sizes, the tasks' mix and overlap. */
export function inputTables(inputs: RunInputs, log: (line: string) => void): Table[] {
  const { catalog, taskSets, hostSpec } = inputs;
  const tokens = tokenCounter(inputs.tokenizer);
  const tables = [footprintTable(catalog, tokens, { host: runHostMeasures(hostSpec).host })];
  const refs = refUses(catalog);
  for (const w of externalRefWarnings(refs)) log(w);
  const refTable = refSizeTable(catalog, tokens, refs);
  if (refTable) tables.push(refTable);
  if (taskSets.length) tables.push(taskMixTable(taskSets[0]!.tasks), overlapTable(taskSets[0]!.tasks, catalog));
  // A catalog without tasks: each tool's tokens, field by field, for what the run can measure.
  else tables.push(toolBreakdownTable(catalog, tokens));
  return tables;
}

/**
 * The run's tables after its units: Table 3 and the host profiles (or, without tasks, what each
 * main pipeline costs before any query), then every study's in registry order, with the notes
 * that join them; the source's figures stay only on the catalog they were published for.
 */
export async function resultTables(
  inputs: RunInputs,
  run: {
    pipelines: readonly PipelineEntry[];
    studies: readonly Study[];
    quick: boolean;
    seed: number;
    resultsDir: string;
    encoder: Encoder;
    /** The registry's suites (src/table/suites.ts); absent: every built-in one. */
    suites?: readonly Suite[];
  },
  collected: Collected,
  before: readonly Table[],
): Promise<Table[]> {
  const tables = [...before, ...(inputs.taskSets.length ? measuredTables(inputs, run, collected) : [await staticTable(inputs, run)])];
  for (const study of run.studies) tables.push(...collected.studyTables.get(study.id)!);
  return withRecallGapNotes(tables, run.suites).map((t) => publishedOnlyFor(t, inputs.catalog.name));
}

function measuredTables(inputs: RunInputs, run: { pipelines: readonly PipelineEntry[]; quick: boolean }, collected: Collected): Table[] {
  const { catalog, taskSets, host, hostSpec } = inputs;
  const context = `Catalog ${catalog.name} (${catalog.tools.length} tools), tokenizer ${inputs.tokenizer}, tool list as ${host.label} sends it, ${taskSets.reduce((s, t) => s + t.tasks.length, 0)} task runs${run.quick ? ' (--quick subset)' : ''}.`;
  const main = new Set(run.pipelines.filter((e) => e.group === 'main').map((e) => e.id));
  const retrieval = retrievalNote(
    new Map(collected.ran.filter((p) => main.has(p.id)).map((p) => [p.id, p.settings])),
    new Map(collected.summaries.map((s) => [s.pipeline, s.label])),
  );
  return [
    mainMeasuredTable(
      collected.summaries.filter((s) => main.has(s.pipeline)),
      retrieval ? `${context} ${retrieval}` : context,
    ),
    hostProfilesTable(collected.summaries, run.pipelines, comparedProfiles(hostSpec), context),
    codeModeTable(collected.summaries, run.pipelines, context),
  ];
}

/** A catalog without tasks: what each main pipeline costs before any query. */
function staticTable(
  inputs: RunInputs,
  run: { pipelines: readonly PipelineEntry[]; seed: number; resultsDir: string; encoder: Encoder },
): Promise<Table> {
  return staticCostTable(
    inputs.catalog,
    tokenCounter(inputs.tokenizer),
    run.pipelines.filter((e) => e.group === 'main'),
    { encoder: run.encoder, seed: run.seed, workDir: run.resultsDir, host: runHostMeasures(inputs.hostSpec).host },
  );
}
