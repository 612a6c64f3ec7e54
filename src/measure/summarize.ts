import type { PipelineSettings } from '../pipelines/types.ts';
import { bootstrapMean, bootstrapMeanPair, mean, type Estimate } from '../stats/bootstrap.ts';
import { MEASUREMENT_PARAMS } from './params.ts';
import type { TurnRecord } from './run-pipeline.ts';
import { ownValue } from '../util/json.ts';

export interface PipelineSummary {
  pipeline: string;
  label: string;
  turns: number;
  tasks: number;
  seeds: number[];
  toolTokens: Estimate;
  toolTokensByLabel: Record<string, number>;
  /** Mean tool tokens per turn as each compared host profile sends the prompts, by profile id (src/hosts). */
  toolTokensByHost: Record<string, number>;
  promptTokens: Estimate;
  /** Mean tokens of the tool results the host kept per turn (src/measure/turn-metrics.ts, TranscriptMetrics). */
  resultTokens: number;
  /** Share of those result tokens that are measured results (1: no result was modelled). */
  measuredResultShare: number;
  /** Mean tokens of the code the model wrote per turn (modelled, †). */
  codeTokens: number;
  /** Mean model requests per turn. */
  roundTrips: number;
  recall: number;
  precision: number;
  f1: number;
  /** Share of turns needing a tool where at least one needed full schema was absent. */
  missingShare: number;
  /** Share of needed tools the model could at least see by name. */
  listedRecall: number;
  /** rho(K) = C_task / (C_task + tool tokens + C_sys) at turn `rhoTurn` of long tasks. */
  rhoAtTurn: Estimate;
  /** Tool tokens at that turn as a share of the context window. */
  toolWindowShareAtTurn: number;
  stablePrefixShare: number;
  settings: PipelineSettings;
}

/**
 * Aggregates one pipeline's turn records (all seeds pooled). Tool tokens per turn: mean over
 * turns with a bootstrap 95% interval (resampling turns with the given seed).
 */
export function summarize(
  records: readonly TurnRecord[],
  label: string,
  settings: PipelineSettings = { details: {} },
  seed = 42,
): PipelineSummary {
  const withTools = records.filter((r) => r.needed > 0);
  const recall = mean(withTools.map((r) => r.recall ?? 0));
  const precisionTurns = withTools.filter((r) => r.precision !== null);
  const precision = precisionTurns.length ? mean(precisionTurns.map((r) => r.precision!)) : 0;
  const atTurn = records.filter((r) => r.kind === 'long' && r.turn === MEASUREMENT_PARAMS.rhoTurn - 1);
  const rho = atTurn.map((r) => {
    const task = r.historyTokens + r.userTokens;
    return task / (task + r.toolTokens + r.systemTokens);
  });
  const labels = new Set(records.flatMap((r) => Object.keys(r.toolTokensByLabel)));
  const toolTokensByLabel = Object.fromEntries(
    [...labels].map((l) => [l, mean(records.map((r) => ownValue(r.toolTokensByLabel, l) ?? 0))]),
  );
  // Every record of a run is measured under the same compared hosts.
  const toolTokensByHost = Object.fromEntries(
    Object.keys(records[0]?.toolTokensByHost ?? {}).map((h) => [h, mean(records.map((r) => ownValue(r.toolTokensByHost, h) ?? 0))]),
  );
  // One resampling for both (the same seed draws the same turns).
  const [toolTokens, promptTokens] = bootstrapMeanPair(
    records.map((r) => r.toolTokens),
    records.map((r) => r.promptTokens),
    seed,
  );
  return {
    pipeline: records[0]?.pipeline ?? '',
    label,
    turns: records.length,
    tasks: new Set(records.map((r) => `${r.seed}:${r.taskId}`)).size,
    seeds: [...new Set(records.map((r) => r.seed))],
    toolTokens,
    toolTokensByLabel,
    toolTokensByHost,
    promptTokens,
    ...transcriptMeans(records),
    recall,
    precision,
    f1: recall + precision > 0 ? (2 * recall * precision) / (recall + precision) : 0,
    missingShare: withTools.length ? withTools.filter((r) => r.missingNeeded).length / withTools.length : 0,
    listedRecall: withTools.length ? mean(withTools.map((r) => r.neededListed / r.needed)) : 0,
    rhoAtTurn: bootstrapMean(rho, seed),
    toolWindowShareAtTurn: mean(atTurn.map((r) => r.toolTokens / MEASUREMENT_PARAMS.contextWindow)),
    stablePrefixShare: mean(records.map((r) => r.stablePrefixTokens / r.promptTokens)),
    settings,
  };
}

function transcriptMeans(
  records: readonly TurnRecord[],
): Pick<PipelineSummary, 'resultTokens' | 'measuredResultShare' | 'codeTokens' | 'roundTrips'> {
  let results = 0;
  let measured = 0;
  for (const r of records) {
    results += r.resultTokens;
    measured += r.measuredResultTokens;
  }
  return {
    resultTokens: records.length ? results / records.length : 0,
    measuredResultShare: results ? measured / results : 1,
    codeTokens: mean(records.map((r) => r.codeTokens)),
    roundTrips: mean(records.map((r) => r.roundTrips)),
  };
}
