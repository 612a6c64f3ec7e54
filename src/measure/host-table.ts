import type { HostProfile } from '../hosts/types.ts';
import type { PipelineEntry } from '../pipelines/types.ts';
import { isHostSearch } from '../pipelines/host-search/entries.ts';
import type { Column, Table } from '../table/table.ts';
import type { PipelineSummary } from './summarize.ts';

const HOST_TABLE_ID = 'host-profiles';

/**
 * Tool tokens per turn of the methods (B1–B4, Tool Attention) and of every ADOL mechanism as
 * each host profile sends the same prompts, with the saving versus B1 under the same profile:
 * a saving on outputSchema or annotations is worth nothing to a host that never sends them.
 * Read from the pipelines' summaries (their turns were measured under every profile at once).
 */
export function hostProfilesTable(
  summaries: readonly PipelineSummary[],
  entries: readonly Pick<PipelineEntry, 'id' | 'group' | 'ablationOf' | 'baseline'>[],
  profiles: readonly HostProfile[],
  context: string,
): Table {
  const shown = entries.filter((e) => measuredUnderProfiles(e) && !isHostSearch(e.id));
  const rows = shown.flatMap((e) => summaries.filter((s) => s.pipeline === e.id).map((s) => ({ entry: e, s })));
  const baseline = rows.find((r) => r.entry.baseline)?.s;
  const columns: Column[] = [
    { key: 'method', header: 'method', kind: 'label' },
    { key: 'group', header: 'group', kind: 'label' },
  ];
  for (const p of profiles)
    columns.push(
      { key: `tokens:${p.id}`, header: `${p.id} tool tokens/turn`, kind: 'measured' },
      { key: `vsB1:${p.id}`, header: `${p.id} Δ % vs B1`, kind: 'difference', digits: 1 },
    );
  return {
    id: HOST_TABLE_ID,
    title: 'Tool tokens per turn as each host sends the same prompts: methods and ADOL mechanisms, saving versus B1 per host',
    columns,
    rows: rows.map(({ entry, s }) => {
      const row: Record<string, string | number | undefined> = { method: s.label, group: entry.group === 'adol' ? 'ADOL' : 'method' };
      for (const p of profiles) {
        const v = s.toolTokensByHost[p.id];
        const b = baseline?.toolTokensByHost[p.id];
        row[`tokens:${p.id}`] = v;
        row[`vsB1:${p.id}`] = s !== baseline && v !== undefined && b ? (100 * (v - b)) / b : undefined;
      }
      return row;
    }),
    notes: [
      context,
      'Each profile renders the sections of a prompt that are the MCP tool list (full definitions; a heading or ADOL’s shared templates render to nothing) its own way, and adds its per-request tokens once to a turn that carries at least one tool; every other tool section (Tool Attention’s summary pool, B4’s CLI text and discovery output) stays text, counted in the profile’s tokenizer. Means over the same turns as Table 3 and the ADOL mechanisms table.',
      ...profiles.map(
        (p) =>
          `${p.label}: ${p.tokenizerNote}; sends ${p.sends === 'all' ? 'every tools/list field' : p.sends.join(', ')}; per request ${p.requestTokensNote}. Source: ${p.sources.map((x) => x.title).join('; ')}.`,
      ),
      'B4’s prompt holds no tool definition (the model runs its CLI "with your shell tool", which the prompt does not define), so no host adds per-request tokens to it; live mode sends it a shell tool. ADOL $ref: a provider’s tool parameter takes one self-contained schema per tool, so a $defs shared across tools cannot be sent: under a provider profile the $ref variants send their tools whole and save nothing.',
      'Known error of each profile, and its sources: docs/hosts.md.',
    ],
  };
}

/**
 * Whether a pipeline's turns are measured under every compared host profile: the methods (not
 * their labelled ablations) and the ADOL mechanisms, the rows this table may show.
 */
export function measuredUnderProfiles(entry: Pick<PipelineEntry, 'group' | 'ablationOf'>): boolean {
  return (entry.group === 'main' && !entry.ablationOf) || entry.group === 'adol';
}
