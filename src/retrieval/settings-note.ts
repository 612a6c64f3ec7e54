/**
 * One line for the Table 3 notes naming, for each retrieval pipeline, the encoder, the index,
 * k and θ it recorded through describe(). Undefined when no pipeline retrieves.
 */
export function retrievalNote(settings: Readonly<Record<string, unknown>>, labels: ReadonlyMap<string, string>): string | undefined {
  const parts: string[] = [];
  for (const [id, value] of Object.entries(settings)) {
    const s = value as { encoder?: string; index?: string; k?: number; theta?: number; thetaSource?: string };
    if (!s || typeof s.encoder !== 'string') continue;
    const theta = typeof s.theta === 'number' ? `, θ = ${s.theta.toFixed(2)} (${s.thetaSource?.startsWith('calibrated') ? 'calibrated, max F1 on held-out pairs' : (s.thetaSource ?? 'fixed')})` : ', no threshold';
    parts.push(`${labels.get(id) ?? id}: encoder ${s.encoder}, index ${s.index ?? '?'}, k = ${s.k ?? '?'}${theta}`);
  }
  return parts.length ? `Retrieval: ${parts.join('; ')}.` : undefined;
}
