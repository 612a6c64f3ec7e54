import { SYNTHETIC_CATALOG_NAME } from '../../catalog/generate.ts';
import { PROJECTION_PARAMS, SEARCH_KNOWLEDGE_FIT, withParam } from '../../sim/projection/params.ts';
import { loadSuite } from '../../tasks/bundled-suites.ts';
import { SUITES } from '../../table/suites.ts';
import type { Table } from '../../table/table.ts';
import { defineStudy, type Study, type StudyContext } from '../types.ts';
import { PUBLISHED_FIGURES, type FigurePart } from './figures.ts';
import { fitKnowledge, KNOWLEDGE_FIGURES } from './fit.ts';
import { CalibrationHarness, type HarnessInputs } from './harness.ts';

const SEARCH_CALIBRATION_TABLE = 'search-calibration';

/** The suite the study loads by id, through the run's registry. */
function suiteInputs(ctx: StudyContext, id: string) {
  const suite = (ctx.suites ?? SUITES).find((s) => s.id === id);
  return suite ? loadSuite(suite, ctx.root) : undefined;
}

/**
 * Every published measured figure about tool search, code execution and the papers' methods
 * (./figures.ts) beside the harness's figure on the closest setup it builds, with the
 * difference. search.knowledge is refitted here on the calibration figures over the
 * LiveMCPBench development half; every validation figure is computed at that value and never
 * fitted. Runs with the default (synthetic) bench, after the pipelines (it reads their token
 * counts).
 */
export const searchCalibrationStudy: Study = defineStudy(import.meta.url, {
  // Forty-odd search passes over the LiveMCPBench and real suites: on a thread apart, like host-search.
  scheduling: { ownThread: true },
  id: 'search-calibration',
  description: 'published measured figures about tool search and code execution beside the harness, calibration and validation',
  readsPipelineResults: true,
  needsTasks: false,
  async run(ctx) {
    if (ctx.catalog.name !== SYNTHETIC_CATALOG_NAME) return [];
    return [await calibrationTable(ctx)];
  },
});

export async function calibrationTable(ctx: StudyContext): Promise<Table> {
  const inputs: HarnessInputs = { ctx, lmb: suiteInputs(ctx, 'livemcpbench'), real: suiteInputs(ctx, 'real') };
  const fit = await fitKnowledge(inputs);
  const harness = new CalibrationHarness(inputs, withParam(PROJECTION_PARAMS, 'search.knowledge', fit.value));
  const rows: Table['rows'] = [];
  const errors: Record<FigurePart, number[]> = { calibration: [], validation: [] };
  const unreproduced: string[] = [];
  for (const f of PUBLISHED_FIGURES) {
    const h = f.harness ? await harness.figure(f.harness) : { missing: f.why ?? 'no harness figure' };
    const ok = !('missing' in h);
    if (ok) errors[f.part].push(Math.abs(h.value - f.value));
    else unreproduced.push(`${f.id}: ${h.missing}`);
    rows.push({
      figure: f.claim,
      source: f.source,
      part: f.part,
      published: f.value,
      harness: ok ? h.value : undefined,
      difference: ok ? h.value - f.value : undefined,
      basis: ok ? (h.basis === 'measured' ? 'measured tokens' : 'modelled †') : '—',
      setup: ok ? h.setup : `not reproduced: ${h.missing}`,
    });
  }
  const med = (part: FigurePart) => (errors[part].length ? median(errors[part]).toFixed(1) : '—');
  return {
    id: SEARCH_CALIBRATION_TABLE,
    title: 'Calibration: published measured figures beside the harness on the closest setup',
    columns: [
      { key: 'figure', header: 'published figure', kind: 'label' },
      { key: 'source', header: 'source', kind: 'label' },
      { key: 'part', header: 'part', kind: 'label' },
      { key: 'published', header: 'published %', kind: 'published', digits: 1 },
      { key: 'harness', header: 'harness %', kind: 'projected', digits: 1 },
      { key: 'difference', header: 'difference (pp)', kind: 'difference', digits: 1 },
      { key: 'basis', header: 'basis', kind: 'label' },
      { key: 'setup', header: 'harness setup', kind: 'label' },
    ],
    rows,
    notes: [
      `search.knowledge fitted here to ${fit.value.toFixed(2)} (grid step 0.05, least squares on ${KNOWLEDGE_FIGURES.map((f) => f.id).join(', ')}; LiveMCPBench development half only); the pipelines run with ${SEARCH_KNOWLEDGE_FIT.value.toFixed(2)}${Math.abs(fit.value - SEARCH_KNOWLEDGE_FIT.value) > 1e-9 ? ' — they differ: update SEARCH_KNOWLEDGE_FIT' : ''}. The selection model's c is solved from the Opus 4.5 figure (Opus 4's from its own), so those two calibration rows are exact by construction.`,
      `Median absolute error: calibration ${med('calibration')} pp over ${errors.calibration.length} figures; validation ${med('validation')} pp over ${errors.validation.length} figures (never fitted).`,
      'Harness %: the emulation on the closest setup it builds (the searching model, the selection model, the run’s own token counts), never a published number; a published figure’s catalog and tasks are not ours (sizes in the setup column).',
      ...(unreproduced.length ? [`Not reproduced: ${unreproduced.join('; ')}.`] : []),
    ],
  };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
