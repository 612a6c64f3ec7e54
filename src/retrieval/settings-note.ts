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
    const how = r.thetaSource?.startsWith('calibrated (coverage)')
      ? `calibrated, coverage of held-out turns; scores ${r.scoreScale ?? 'as is'}`
      : r.thetaSource?.startsWith('calibrated')
        ? 'calibrated, max F1 on held-out pairs'
        : (r.thetaSource ?? 'fixed');
    const theta = typeof r.theta === 'number' ? `, θ = ${r.theta.toFixed(2)} (${how})` : ', no threshold';
    const ranker = r.retriever ? `retriever ${r.retriever}` : `encoder ${r.encoder}, index ${r.index ?? '?'}`;
    parts.push(`${labels.get(id) ?? id}: ${ranker}, k = ${r.k}${theta}`);
  }
  return parts.length ? `Retrieval: ${parts.join('; ')}.` : undefined;
}
