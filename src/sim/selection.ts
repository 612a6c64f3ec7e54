import type { ParamValues } from './projection/params.ts';

/**
 * The tool-selection model: the probability that the model picks the right tool among the
 * tools a prompt shows it, as a function of how many others are shown and in what form.
 *
 *   P(right) = 1 / (1 + c · Σ_other tools w_form)
 *
 * A Luce choice rule in which the right tool has strength 1 and every other tool shown adds
 * confusion c·w: a full schema weighs 1, a summary line `selection.weightSummary`, a CLI
 * `--list` line `selection.weightCliLine`. c is solved from one published figure
 * (SELECTION_ANCHOR in params.ts); the other published figures are cross-checks
 * (projection-selection-model table). The same function serves every method: B1 (all schemas),
 * B2/B3 (a subset of schemas), Tool Attention (promoted schemas + the summary pool), B4 (the
 * `--list` lines when it chooses which `--help` to run, the helped tools when it calls).
 */

/** The other tools (not the right one) a prompt shows, by form. */
export interface ShownOthers {
  schemas: number;
  summaries: number;
  cliLines: number;
}

/** How a prompt lists tools whose full definition it does not carry. */
export type ListedForm = 'summary' | 'cli-line';

export function rightPickProbability(others: ShownOthers, v: ParamValues): number {
  const load =
    Math.max(0, others.schemas) +
    v['selection.weightSummary'] * Math.max(0, others.summaries) +
    v['selection.weightCliLine'] * Math.max(0, others.cliLines);
  return 1 / (1 + v['selection.confusionPerSchema'] * load);
}

/**
 * The others shown when the right tool's full definition is one of `schemas` definitions and
 * `listed` tools in total are visible (listed-only ones in `form`).
 */
export function othersAround(schemas: number, listed: number, form: ListedForm): ShownOthers {
  const others = Math.max(0, schemas - 1);
  const listedOnly = Math.max(0, listed - schemas);
  return { schemas: others, summaries: form === 'summary' ? listedOnly : 0, cliLines: form === 'cli-line' ? listedOnly : 0 };
}
