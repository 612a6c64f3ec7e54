/**
 * What a report says about the run, read from results/run.json alone. Keys read (all optional):
 *   catalog {name, tools, servers[]}, tokenizer, seeds[], quick, seconds,
 *   encoder, index, theta (top level, a string/number or {name|id}; else found in any
 *   pipelines.<id> settings under the same key, or `threshold` for theta),
 *   finishedAt | startedAt (ISO time; else the time run.json was written).
 */
export type RunInfo = Record<string, unknown>;

export interface RunFact {
  label: string;
  value: string;
}

const NOT_RECORDED = 'not recorded in run.json';

export function runFacts(info: RunInfo, writtenAt?: Date): RunFact[] {
  const catalog = info.catalog as { name?: string; tools?: number; servers?: unknown[] } | undefined;
  const seeds = info.seeds as unknown[] | undefined;
  const seconds = typeof info.seconds === 'number' ? info.seconds : undefined;
  const when = str(info.finishedAt) ?? str(info.startedAt) ?? (writtenAt ? `${writtenAt.toISOString().replace('T', ' ').slice(0, 19)} UTC (run.json written)` : undefined);
  return [
    { label: 'catalog', value: catalog?.name ? `${catalog.name}${catalog.tools ? ` (${catalog.tools} tools${catalog.servers ? `, ${catalog.servers.length} servers` : ''})` : ''}` : NOT_RECORDED },
    { label: 'tokenizer', value: str(info.tokenizer) ?? NOT_RECORDED },
    { label: 'encoder', value: setting(info, ['encoder']) ?? NOT_RECORDED },
    { label: 'index', value: setting(info, ['index']) ?? NOT_RECORDED },
    { label: 'θ', value: setting(info, ['theta', 'threshold']) ?? NOT_RECORDED },
    { label: 'seeds', value: seeds?.length ? `${seeds.join(', ')}${info.quick ? ' (--quick subset)' : ''}` : NOT_RECORDED },
    { label: 'time', value: [when, seconds !== undefined ? `bench took ${seconds.toFixed(1)} s` : undefined].filter(Boolean).join('; ') || NOT_RECORDED },
  ];
}

/** A setting at the top level of run.json, or every distinct value found in the pipelines' settings. */
function setting(info: RunInfo, keys: string[]): string | undefined {
  for (const k of keys) {
    const top = str(info[k]);
    if (top) return top;
  }
  const found = new Map<string, string[]>();
  for (const [pipeline, settings] of Object.entries((info.pipelines as Record<string, Record<string, unknown>> | undefined) ?? {})) {
    for (const k of keys) {
      const v = str(settings?.[k]);
      if (v) {
        found.set(v, [...(found.get(v) ?? []), pipeline]);
        break;
      }
    }
  }
  if (found.size === 0) return undefined;
  return [...found.entries()].map(([v, ps]) => `${v} (${ps.join(', ')})`).join('; ');
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string' && v) return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (v && typeof v === 'object') {
    const o = v as { name?: unknown; id?: unknown };
    return str(o.name) ?? str(o.id);
  }
  return undefined;
}
