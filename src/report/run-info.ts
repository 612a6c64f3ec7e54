import type { RunManifest } from '../results/manifest.ts';

/** What a report says about the run, read from the run manifest (results/run.json) alone. */
export interface RunFact {
  label: string;
  value: string;
  /** Shown in the one-line run summary that stays visible while the details are folded away. */
  headline?: boolean;
}

const NOT_RECORDED = 'not recorded (no run manifest)';

export function runFacts(m: RunManifest | undefined): RunFact[] {
  if (!m)
    return ['catalog', 'tokenizer', 'host', 'encoder', 'retriever', 'index', 'θ', 'seeds', 'time'].map((label) => ({
      label,
      value: NOT_RECORDED,
      headline: label === 'catalog',
    }));
  return [
    { label: 'catalog', value: `${m.catalog.name} (${m.catalog.tools} tools, ${m.catalog.servers.length} servers)`, headline: true },
    { label: 'tokenizer', value: m.tokenizer, headline: true },
    // Runs written before host profiles counted the tools/list JSON, as the default does.
    { label: 'host', value: m.host?.label ?? 'mcp-json (compact tools/list JSON)', headline: true },
    { label: 'encoder', value: m.encoder.name, headline: true },
    {
      // What ranks tools in the main methods (the encoder above is one input of some retrievers).
      label: 'retriever',
      value:
        byPipeline({ ...m, pipelines: m.pipelines.filter((p) => p.group === 'main') }, (p) => p.settings.retrieval?.retriever) ??
        'no retrieval pipeline ran',
    },
    { label: 'index', value: byPipeline(m, (p) => p.settings.retrieval?.index) ?? 'no retrieval pipeline ran' },
    {
      label: 'θ',
      value:
        byPipeline(m, (p) => (typeof p.settings.retrieval?.theta === 'number' ? p.settings.retrieval.theta.toFixed(2) : undefined)) ??
        'no thresholded pipeline ran',
    },
    { label: 'seeds', value: `${m.seeds.join(', ')}${m.quick ? ' (--quick subset)' : ''}`, headline: true },
    { label: 'time', value: `${m.finishedAt.replace('T', ' ').slice(0, 19)} UTC; bench took ${m.seconds.toFixed(1)} s` },
    { label: 'version', value: `tooltax ${m.version}${m.commit ? ` (${m.commit.slice(0, 12)})` : ''}` },
  ];
}

/** Every distinct value a field takes over the pipelines, with the pipelines that have it. */
function byPipeline(m: RunManifest, field: (p: RunManifest['pipelines'][number]) => string | undefined): string | undefined {
  const found = new Map<string, string[]>();
  for (const p of m.pipelines) {
    const v = field(p);
    if (v) found.set(v, [...(found.get(v) ?? []), p.code]);
  }
  if (found.size === 0) return undefined;
  return [...found.entries()].map(([v, ps]) => `${v} (${ps.join(', ')})`).join('; ');
}
