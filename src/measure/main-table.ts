import { fewerSeedsNotes, meansNote } from './seeds-note.ts';
import type { PipelineSummary } from './summarize.ts';
import { fitNotes } from './fit-note.ts';
import { MEASUREMENT_PARAMS } from './params.ts';
import { PUBLISHED_MAIN, PUBLISHED_SOURCE, TESTBED_CATALOG } from '../reference/published.ts';
import type { Table } from '../table/table.ts';
import { ownValue } from '../util/json.ts';
import { resultCells, resultColumns, resultNote } from './result-columns.ts';

/** The measured columns of the paper's Table 3, with the published figures beside them. */
export function mainMeasuredTable(summaries: readonly PipelineSummary[], context: string): Table {
  return {
    id: 'table3-measured',
    title: `Table 3 (measured part): tool tokens per turn and rho at turn ${MEASUREMENT_PARAMS.rhoTurn}`,
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'toolTokens', header: 'tool tokens/turn', kind: 'measured' },
      { key: 'ci', header: '95% CI', kind: 'measured' },
      { key: 'pubTokens', header: 'published', kind: 'published', publishedFor: TESTBED_CATALOG },
      { key: 'diffTokensPct', header: 'Δ %', kind: 'difference', digits: 1, publishedFor: TESTBED_CATALOG },
      { key: 'phases', header: 'by part (mean tokens)', kind: 'measured' },
      ...resultColumns(summaries),
      { key: 'promptTokens', header: 'prompt tokens/turn', kind: 'measured' },
      { key: 'rho', header: `rho T${MEASUREMENT_PARAMS.rhoTurn}`, kind: 'measured', digits: 2 },
      { key: 'pubRho', header: 'published', kind: 'published', digits: 2, publishedFor: TESTBED_CATALOG },
      {
        key: 'windowShare',
        header: `tools % of ${MEASUREMENT_PARAMS.contextWindow / 1000}k window at T${MEASUREMENT_PARAMS.rhoTurn}`,
        kind: 'measured',
        digits: 1,
      },
      { key: 'recall', header: 'recall', kind: 'measured', digits: 3 },
      { key: 'precision', header: 'precision', kind: 'measured', digits: 3 },
      { key: 'f1', header: 'F1', kind: 'measured', digits: 3 },
      { key: 'missing', header: 'turns missing a needed schema %', kind: 'measured', digits: 1 },
    ],
    rows: summaries.map((s) => {
      const pub = ownValue(PUBLISHED_MAIN, s.pipeline);
      return {
        pipeline: s.pipeline,
        method: s.label,
        toolTokens: s.toolTokens.mean,
        ci: `${fmt(s.toolTokens.low)}–${fmt(s.toolTokens.high)}`,
        pubTokens: pub ? `${fmt(pub.toolTokens)} ± ${fmt(pub.toolTokensCi)}` : undefined,
        diffTokensPct: pub ? (100 * (s.toolTokens.mean - pub.toolTokens)) / pub.toolTokens : undefined,
        phases: Object.entries(s.toolTokensByLabel)
          .map(([k, v]) => `${k} ${fmt(v)}`)
          .join('; '),
        ...resultCells(s),
        promptTokens: s.promptTokens.mean,
        rho: s.rhoAtTurn.mean,
        pubRho: pub?.rhoT30,
        windowShare: 100 * s.toolWindowShareAtTurn,
        recall: s.recall,
        precision: s.precision,
        f1: s.f1,
        missing: 100 * s.missingShare,
      };
    }),
    notes: [
      context,
      meansNote(summaries),
      ...fewerSeedsNotes(summaries),
      `rho(K) = C_task / (C_task + tool tokens + C_sys) at turn ${MEASUREMENT_PARAMS.rhoTurn} of long-horizon tasks; C_task = history + user message tokens.`,
      ...summaries.filter((s) => s.settings.discovery).map((s) => `${s.label} discovery — ${s.settings.discovery!.rule}.`),
      ...fitNotes(summaries),
      resultNote(summaries),
      `Recall/precision: full schemas present in the prompt versus the turn's ground-truth tools (turns that need a tool). Published: ${PUBLISHED_SOURCE}, Table 3.`,
    ],
  };
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
