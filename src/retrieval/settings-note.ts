import type { PipelineSettings } from '../results/pipeline-settings.ts';

/**
 * One line for the Table 3 notes naming, for each retrieval pipeline, the encoder, the index,
 * k and θ it recorded in its typed settings. Undefined when no pipeline retrieves.
 */
export function retrievalNote(settings: ReadonlyMap<string, PipelineSettings>, labels: ReadonlyMap<string, string>): string | undefined {
  const parts: string[] = [];
  for (const [id, value] of settings) {
    const r = value.retrieval;
    if (!r) continue;
    const theta =
      typeof r.theta === 'number'
        ? `, θ = ${r.theta.toFixed(2)} (${r.thetaSource?.startsWith('calibrated') ? 'calibrated, max F1 on held-out pairs' : (r.thetaSource ?? 'fixed')})`
        : ', no threshold';
    parts.push(`${labels.get(id) ?? id}: encoder ${r.encoder}, index ${r.index ?? '?'}, k = ${r.k}${theta}`);
  }
  return parts.length ? `Retrieval: ${parts.join('; ')}.` : undefined;
}
