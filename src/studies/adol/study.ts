import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REAL_CATALOGS_ENV, realCatalogDir } from '../../table/suites.ts';
import type { TurnRecord } from '../../measure/run-pipeline.ts';
import { defineStudy, type Study, type StudyContext } from '../types.ts';
import { loadCatalog } from '../../catalog/load.ts';
import type { Catalog } from '../../catalog/types.ts';
import type { Table } from '../../table/table.ts';
import type { TokenCounter } from '../../tokens/counter.ts';
import {
  dedupeTools,
  dereferenceDedup,
  renderExternalList,
  renderInternal,
  renderPlain,
  renderTemplates,
} from '../../pipelines/adol/dedup.ts';
import { duplicationStats, type DuplicationStats } from '../../pipelines/adol/duplication-stats.ts';
import { canonicalJson } from '../../pipelines/adol/json.ts';
import {
  ADOL_PRESETS,
  exposedDefinition,
  NO_MECHANISM,
  outputSelections,
  type AdolOptions,
  type OutputSelection,
} from '../../pipelines/adol/pipeline.ts';
import { PUBLISHED_ADOL_GITHUB, PUBLISHED_ADOL_SOURCE } from '../../pipelines/adol/published.ts';
import { trimResponse } from '../../pipelines/adol/require-output.ts';
import { mean } from '../../stats/bootstrap.ts';
import { fitNotes } from '../../measure/fit-note.ts';
import { ownValue } from '../../util/json.ts';

/**
 * The ADOL study (registered in src/studies/registry.ts). Tables:
 *  (a) `adol-mechanisms`: each mechanism alone and combined, from the bench's turn records —
 *      tool tokens/turn and the change versus B1, prompt and history tokens, recall, and
 *      requireOutput's response tokens before/after trimming;
 *  (a') `adol-require-output`: requireOutput per server — what the schema offer costs and
 *      what trimming saves on the sample responses of the tasks' tool calls;
 *  (b) `adol-duplication`: the draft's duplication statistics per catalog (the run's catalog
 *      and every real dump) beside the published GitHub figures;
 *  (c) `adol-static`: the static tool-list tokens of each catalog under each mechanism, with
 *      the lossless check (ref-parser dereference) of every deduplicated list.
 * Real dumps are read from $TOOLTAX_REAL_CATALOGS, else catalogs/real in the
 * project root; without them (b) and (c) cover the run's catalog only.
 */
export const adolStudy: Study = defineStudy(import.meta.url, {
  id: 'adol',
  description: 'the ADOL mechanisms one by one: tokens per turn, duplication statistics and static tool-list tokens of each catalog',
  readsPipelineResults: true,
  // Its duplication and static tables need no tasks; only its per-turn table does.
  needsTasks: false,
  async run(ctx: StudyContext): Promise<Table[]> {
    const tables: Table[] = [];
    if (ctx.records.size) tables.push(adolMechanismTable(ctx), requireOutputTable(ctx));
    const real = realCatalogs(ctx.root, ctx.log);
    const catalogs: { label: string; catalog: Catalog }[] = [{ label: `${ctx.catalog.name} (run catalog)`, catalog: ctx.catalog }, ...real];
    tables.push(
      duplicationTable(
        catalogs.map((c) => ({
          label: c.label,
          stats: duplicationStats(
            c.catalog.name,
            c.catalog.tools.map((t) => t.definition),
            ctx.tokens,
          ),
        })),
      ),
    );
    const rows: StaticRow[] = [];
    for (const c of catalogs) rows.push(await staticRow(c.label, c.catalog, ctx.tokens));
    tables.push(staticTable(rows));
    return tables;
  },
});

/** Every real dump: the primary ones, then extra/, each sorted by name (a summary.json beside them, as in the source folder, skipped). */
function realCatalogs(root: string, log: (line: string) => void = () => {}): { label: string; catalog: Catalog }[] {
  const dir = realCatalogDir(root);
  if (!existsSync(dir)) {
    log(`adol: no real catalogs at ${dir} (set ${REAL_CATALOGS_ENV}); duplication and static tables cover the run's catalog only`);
    return [];
  }
  const list = (d: string) =>
    existsSync(d)
      ? readdirSync(d)
          .filter((f) => f.endsWith('.json') && f !== 'summary.json' && f !== 'catalog.meta.json')
          .sort()
          .map((f) => join(d, f))
      : [];
  return [...list(dir), ...list(join(dir, 'extra'))].map((file) => ({ label: relative(dir, file), catalog: loadCatalog(file) }));
}

// ---------------------------------------------------------------------------------------
// (a) mechanisms, from the turn records

const ORDER = ['b1-full-schema', ...Object.keys(ADOL_PRESETS)] as const;

function pct(value: number, base: number): number | undefined {
  return Number.isFinite(value) && base ? (100 * (value - base)) / base : undefined;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Response tokens of the needed tools' sample responses, full and trimmed by the request rule. */
function responseTokens(
  records: readonly TurnRecord[],
  catalog: Catalog,
  selections: ReadonlyMap<string, OutputSelection>,
  tokens: TokenCounter,
) {
  const byId = new Map(catalog.tools.map((t) => [t.id, t]));
  let calls = 0;
  let withoutSample = 0;
  let trimmedCalls = 0;
  let before = 0;
  let after = 0;
  for (const r of records) {
    for (const id of r.neededTools) {
      const tool = byId.get(id);
      if (!tool || tool.sampleResponse === undefined) {
        withoutSample++;
        continue;
      }
      calls++;
      const requested = selections.get(id)?.requested ?? [];
      const full = tokens.count(JSON.stringify(tool.sampleResponse));
      const trimmed = requested.length ? tokens.count(JSON.stringify(trimResponse(tool.sampleResponse, requested))) : full;
      if (requested.length) trimmedCalls++;
      before += full;
      after += trimmed;
    }
  }
  return { calls, withoutSample, trimmedCalls, before, after };
}

/** The mechanisms table from a suite's turn records and summaries (this study's on the run's catalog; the real suite's on the six real dumps). */
export function adolMechanismTable(ctx: Pick<StudyContext, 'records' | 'summaries' | 'catalog' | 'tokens'>): Table {
  const b1 = ctx.records.get('b1-full-schema') ?? [];
  const b1Tools = mean(b1.map((r) => r.toolTokens));
  const b1Prompt = mean(b1.map((r) => r.promptTokens));
  const selections = outputSelections(ctx.catalog);
  const rows = ORDER.filter((id) => ctx.records.has(id)).map((id) => {
    const recs = ctx.records.get(id)!;
    const preset = id === 'b1-full-schema' ? undefined : ADOL_PRESETS[id as keyof typeof ADOL_PRESETS];
    const summary = ctx.summaries.find((s) => s.pipeline === id);
    const toolTokens = mean(recs.map((r) => r.toolTokens));
    const promptTokens = mean(recs.map((r) => r.promptTokens));
    const withTools = recs.filter((r) => r.needed > 0);
    const labels = [...new Set(recs.flatMap((r) => Object.keys(r.toolTokensByLabel)))];
    const resp = preset?.options.requireOutput ? responseTokens(recs, ctx.catalog, selections, ctx.tokens) : undefined;
    return {
      mechanism: preset ? preset.mechanism : 'none (B1 Full-Schema)',
      pipeline: id,
      turns: recs.length,
      toolTokens,
      ci: summary ? `${fmt(summary.toolTokens.low)}–${fmt(summary.toolTokens.high)}` : undefined,
      diff: id === 'b1-full-schema' ? undefined : pct(toolTokens, b1Tools),
      parts:
        labels.length > 1
          ? labels.map((l) => `${l} ${fmt(mean(recs.map((r) => ownValue(r.toolTokensByLabel, l) ?? 0)))}`).join('; ')
          : undefined,
      listed: mean(recs.map((r) => r.listedTools)),
      historyTokens: mean(recs.map((r) => r.historyTokens)),
      promptTokens,
      promptDiff: id === 'b1-full-schema' ? undefined : pct(promptTokens, b1Prompt),
      recall: withTools.length ? mean(withTools.map((r) => r.recall ?? 0)) : undefined,
      respBefore: resp && resp.calls ? resp.before / resp.calls : undefined,
      respAfter: resp && resp.calls ? resp.after / resp.calls : undefined,
      respDiff: resp && resp.calls ? pct(resp.after, resp.before) : undefined,
    };
  });
  const ext = ctx.summaries.find((s) => s.pipeline === 'adol-ref-external')?.settings.adol?.externalTemplates;
  const tagFallback = ctx.summaries.find((s) => s.pipeline === 'adol-retrieval-tags')?.settings.adol?.tagFallbackTurns;
  const tagTurns = ctx.records.get('adol-retrieval-tags')?.length;
  return {
    id: 'adol-mechanisms',
    title: `ADOL mechanisms, alone and combined: tool tokens per turn versus B1 (${ctx.catalog.name}, ${ctx.tokens.tokenizer})`,
    columns: [
      { key: 'mechanism', header: 'mechanism', kind: 'label' },
      { key: 'pipeline', header: 'pipeline', kind: 'label' },
      { key: 'toolTokens', header: 'tool tokens/turn', kind: 'measured' },
      { key: 'ci', header: '95% CI', kind: 'measured' },
      { key: 'diff', header: 'Δ % vs B1', kind: 'difference', digits: 1 },
      { key: 'parts', header: 'by part (mean tokens/turn)', kind: 'measured' },
      { key: 'listed', header: 'tools listed/turn', kind: 'measured', digits: 1 },
      { key: 'recall', header: 'recall', kind: 'measured', digits: 3 },
      { key: 'historyTokens', header: 'history tokens/turn', kind: 'measured' },
      { key: 'promptTokens', header: 'prompt tokens/turn', kind: 'measured' },
      { key: 'promptDiff', header: 'prompt Δ % vs B1', kind: 'difference', digits: 1 },
      { key: 'respBefore', header: 'response tokens/call, full', kind: 'measured', digits: 1 },
      { key: 'respAfter', header: 'response tokens/call, trimmed', kind: 'measured', digits: 1 },
      { key: 'respDiff', header: 'response Δ %', kind: 'difference', digits: 1 },
    ],
    rows,
    notes: [
      `Means over every turn of every task and seed in the bench's turn records (${rows[0]?.turns ?? 0} turns per pipeline); 95% CI: the bench's bootstrap over turns. Tool tokens = sections with role "tools".`,
      `$ref internal: the exposed list is deduplicated per turn into the $defs of the tools/list document in the prompt (self-contained). $ref external: ${ext ? `${ext.templates} shared templates (${fmt(ext.tokens)} tokens)` : 'the shared templates'} are counted once per task, on its first turn (the host caches them); later turns carry only the pointer-bearing list. Counted on every turn instead, external costs what internal does or more.`,
      'Short: tools/list --short omits title, outputSchema, annotations, examples, _meta, execution, icons and cuts descriptions to their first sentence; inputSchema kept whole.',
      'requireOutput: tool tokens include the added "requireOutput" input property (output field paths up to depth 2); history tokens fall because every later turn carries the trimmed results. Response tokens/call: the needed tools\' sample responses over all turns, full versus trimmed by the documented request rule (identity, status and pagination fields).',
      `Retrieval: semantic = top-10 of the turn's user message by the run's retriever (what it was fitted on: below; the draft's weighted component embeddings when the preset names an encoder); tags = tools with a catalog tag named by the query's words, full list when none matches${tagFallback !== undefined && tagTurns ? ` (${tagFallback} of ${tagTurns} turns, ${((100 * tagFallback) / tagTurns).toFixed(1)}%)` : ''}. Recall: needed tools whose full definition is in the prompt.`,
      'Combined = internal $ref + short + requireOutput + semantic top-10. Projections (success, latency) are not part of this table.',
      ...fitNotes(ctx.summaries.filter((s) => rows.some((r) => r.pipeline === s.pipeline))),
    ],
  };
}

function requireOutputTable(ctx: StudyContext): Table {
  const selections = outputSelections(ctx.catalog);
  const records = ctx.records.get('adol-require-output') ?? ctx.records.get('b1-full-schema') ?? [...ctx.records.values()][0] ?? [];
  const servers = [...ctx.catalog.servers, 'total'];
  const rows = servers.map((server) => {
    const tools = ctx.catalog.tools.filter((t) => server === 'total' || t.server === server);
    const ids = new Set(tools.map((t) => t.id));
    const offerTokens = tools.reduce((s, t) => {
      const withOffer = exposedDefinition(t, { ...NO_MECHANISM, requireOutput: true }, selections.get(t.id));
      return s + ctx.tokens.count(JSON.stringify(withOffer)) - ctx.tokens.count(JSON.stringify(t.definition));
    }, 0);
    const recs = records.map((r) => ({ ...r, neededTools: r.neededTools.filter((id) => ids.has(id)) }));
    const resp = responseTokens(recs, ctx.catalog, selections, ctx.tokens);
    return {
      server,
      tools: tools.length,
      offering: tools.filter((t) => selections.get(t.id)!.offered.length).length,
      requesting: tools.filter((t) => selections.get(t.id)!.requested.length).length,
      offerTokens,
      offerPerTool: tools.length ? offerTokens / tools.length : undefined,
      calls: resp.calls,
      trimmedCalls: resp.trimmedCalls,
      before: resp.calls ? resp.before / resp.calls : undefined,
      after: resp.calls ? resp.after / resp.calls : undefined,
      diff: resp.calls ? pct(resp.after, resp.before) : undefined,
    };
  });
  return {
    id: 'adol-require-output',
    title: `ADOL requireOutput: schema offer cost and response trimming by server (${ctx.catalog.name})`,
    columns: [
      { key: 'server', header: 'server', kind: 'label' },
      { key: 'tools', header: 'tools', kind: 'measured' },
      { key: 'offering', header: 'tools offering fields', kind: 'measured' },
      { key: 'requesting', header: 'tools the rule requests from', kind: 'measured' },
      { key: 'offerTokens', header: 'added input-schema tokens (list)', kind: 'measured' },
      { key: 'offerPerTool', header: 'added tokens/tool', kind: 'measured', digits: 1 },
      { key: 'calls', header: 'tool calls measured', kind: 'measured' },
      { key: 'trimmedCalls', header: 'calls trimmed', kind: 'measured' },
      { key: 'before', header: 'response tokens/call, full', kind: 'measured', digits: 1 },
      { key: 'after', header: 'trimmed', kind: 'measured', digits: 1 },
      { key: 'diff', header: 'Δ %', kind: 'difference', digits: 1 },
    ],
    rows,
    notes: [
      'Offer: an optional "requireOutput" input property, an array of unique strings from an enum of the output schema\'s field paths (dotted, arrays transparent, depth ≤ 2), described with the draft\'s Figure 5 wording. Added tokens: compact JSON of each definition with minus without the offer.',
      'Request rule (fixed, not tuned): the offered paths whose last segment is an identity field (id, key, number, name, title, slug, login, sha, ref, path, url, uri, html_url, web_url, permalink, ts, uuid, *_id, *_key, *_url, *_number), a status field (state, status, conclusion, merged, success, ok, error, *_status, *_state) or a pagination field (has_next_page, next_cursor, cursor, next_page_token, total, total_count); a tool where it matches nothing is called without requireOutput and returns its full response.',
      "Calls: every needed tool of every turn in the bench records (all seeds), measured on the catalog's sample response (compact JSON), full versus trimmed by the client.",
    ],
  };
}

// ---------------------------------------------------------------------------------------
// (b) duplication statistics

function duplicationTable(items: { label: string; stats: DuplicationStats }[]): Table {
  const P = PUBLISHED_ADOL_GITHUB;
  const share = (n: number, of: number) => (of ? (100 * n) / of : undefined);
  const rows = items.map(({ label, stats: s }) => {
    const pub = s.catalog === P.catalog && s.tools === P.tools;
    return {
      catalog: label,
      tools: s.tools,
      tokens: s.totalTokens,
      owner: `${s.owner.identical}/${s.tools} (of ${s.owner.present} with owner)`,
      ownerPct: share(s.owner.identical, s.tools),
      pubOwner: pub ? `${P.owner}/${P.tools} (${((100 * P.owner) / P.tools).toFixed(0)}%)` : undefined,
      repo: `${s.repo.identical}/${s.tools} (of ${s.repo.present})`,
      repoPct: share(s.repo.identical, s.tools),
      pubRepo: pub ? `${P.repo}/${P.tools} (${((100 * P.repo) / P.tools).toFixed(0)}%)` : undefined,
      required: s.requiredOwnerRepo,
      requiredPct: share(s.requiredOwnerRepo, s.tools),
      pubRequired: pub ? `${P.requiredOwnerRepo}/${P.tools} (${((100 * P.requiredOwnerRepo) / P.tools).toFixed(0)}%)` : undefined,
      repetition: 100 * s.repetitionRate,
      threeField: 100 * s.threeFieldRate,
      pubRepetition: pub ? P.repetitionRatePct : undefined,
      dupShare: 100 * s.dupShare,
    };
  });
  return {
    id: 'adol-duplication',
    title: 'ADOL duplication statistics per catalog, beside the published GitHub MCP server figures',
    columns: [
      { key: 'catalog', header: 'catalog', kind: 'label' },
      { key: 'tools', header: 'tools', kind: 'measured' },
      { key: 'tokens', header: 'tokens (compact JSON)', kind: 'measured' },
      { key: 'owner', header: 'identical "owner"', kind: 'measured' },
      { key: 'ownerPct', header: 'owner %', kind: 'measured', digits: 1 },
      { key: 'pubOwner', header: 'owner (published)', kind: 'published' },
      { key: 'repo', header: 'identical "repo"', kind: 'measured' },
      { key: 'repoPct', header: 'repo %', kind: 'measured', digits: 1 },
      { key: 'pubRepo', header: 'repo (published)', kind: 'published' },
      { key: 'required', header: 'required ["owner","repo"]', kind: 'measured' },
      { key: 'requiredPct', header: 'required %', kind: 'measured', digits: 1 },
      { key: 'pubRequired', header: 'required (published)', kind: 'published' },
      { key: 'repetition', header: 'repetition rate %', kind: 'measured', digits: 2 },
      { key: 'threeField', header: 'owner/repo/required copies %', kind: 'measured', digits: 2 },
      { key: 'pubRepetition', header: 'repetition rate % (published)', kind: 'published', digits: 2 },
      { key: 'dupShare', header: 'dup share % (summary.json method)', kind: 'measured', digits: 1 },
    ],
    rows,
    notes: [
      'Identical "owner"/"repo": tools whose top-level input property equals the catalog\'s most common definition of it (key-sorted JSON), out of all tools; "of N" counts any definition. required: inputSchema.required exactly ["owner","repo"].',
      'Repetition rate (ours; the draft gives 9.84% without a method): tokens of repeated copies / tokens of the whole list. Units: top-level input properties as written ("name":definition, identical name and definition) and "required" lists; a unit in k ≥ 2 tools contributes (k − 1) × its tokens. Denominator: the tools\' compact JSON tokens, summed.',
      'owner/repo/required copies: the same, restricted to the modal owner and repo definitions and the ["owner","repo"] list (the content the draft shows). Dup share: all occurrences of top-level property definitions (value only) found in ≥ 2 tools, as in catalogs/real/summary.json (dup_share_tokens).',
      `Published: ${PUBLISHED_ADOL_SOURCE}; shown only on the row of the matching catalog (extra/github-2025-09.json, the GitHub MCP server's 60 tools of September 2025). The whole run's catalog is counted as one list (duplicates across its servers included).`,
    ],
  };
}

// ---------------------------------------------------------------------------------------
// (c) static tool-list tokens per catalog

interface StaticRow {
  catalog: string;
  tools: number;
  full: number;
  refInternal: number;
  defsInternal: number;
  refExternalList: number;
  templates: number;
  short: number;
  requireOutput: number;
  combined: number;
  lossless: string;
}

async function staticRow(label: string, catalog: Catalog, tokens: TokenCounter): Promise<StaticRow> {
  const defs = catalog.tools.map((t) => t.definition);
  const selections = outputSelections(catalog);
  const view = (options: AdolOptions) => catalog.tools.map((t) => exposedDefinition(t, options, selections.get(t.id)));
  const internal = dedupeTools(defs, 'internal', tokens);
  const external = dedupeTools(defs, 'external', tokens);
  const combinedInput = view({ ...NO_MECHANISM, short: true, requireOutput: true });
  const combined = dedupeTools(combinedInput, 'internal', tokens);
  const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
  const checks = await Promise.all([
    dereferenceDedup(internal).then((t) => same(t, defs)),
    dereferenceDedup(external).then((t) => same(t, defs)),
    dereferenceDedup(combined).then((t) => same(t, combinedInput)),
  ]);
  return {
    catalog: label,
    tools: defs.length,
    full: tokens.count(renderPlain(defs)),
    refInternal: tokens.count(renderInternal(internal)),
    defsInternal: internal.defs.length,
    refExternalList: tokens.count(renderExternalList(external)),
    templates: external.defs.length ? tokens.count(renderTemplates(external)) : 0,
    short: tokens.count(renderPlain(view({ ...NO_MECHANISM, short: true }))),
    requireOutput: tokens.count(renderPlain(view({ ...NO_MECHANISM, requireOutput: true }))),
    combined: tokens.count(renderInternal(combined)),
    lossless: checks.every(Boolean) ? 'yes' : `NO (${checks.map((c) => (c ? 'ok' : 'fail')).join('/')})`,
  };
}

function staticTable(rows: StaticRow[]): Table {
  return {
    id: 'adol-static',
    title: 'ADOL static tool-list tokens per catalog: full versus each mechanism (whole tools/list section as rendered in the prompt)',
    columns: [
      { key: 'catalog', header: 'catalog', kind: 'label' },
      { key: 'tools', header: 'tools', kind: 'measured' },
      { key: 'full', header: 'full (B1)', kind: 'measured' },
      { key: 'refInternal', header: '$ref internal', kind: 'measured' },
      { key: 'refInternalDiff', header: 'Δ %', kind: 'difference', digits: 1 },
      { key: 'defsInternal', header: '$defs hoisted', kind: 'measured' },
      { key: 'refExternalList', header: '$ref external, list/turn', kind: 'measured' },
      { key: 'refExternalDiff', header: 'Δ %', kind: 'difference', digits: 1 },
      { key: 'templates', header: 'templates (once/session)', kind: 'measured' },
      { key: 'short', header: 'short', kind: 'measured' },
      { key: 'shortDiff', header: 'Δ %', kind: 'difference', digits: 1 },
      { key: 'requireOutput', header: 'with requireOutput offer', kind: 'measured' },
      { key: 'requireOutputDiff', header: 'Δ %', kind: 'difference', digits: 1 },
      { key: 'combined', header: 'short + requireOutput + $ref internal', kind: 'measured' },
      { key: 'combinedDiff', header: 'Δ %', kind: 'difference', digits: 1 },
      { key: 'lossless', header: 'lossless (dereference = original)', kind: 'measured' },
    ],
    rows: rows.map((r) => ({
      ...r,
      refInternalDiff: pct(r.refInternal, r.full),
      refExternalDiff: pct(r.refExternalList, r.full),
      shortDiff: pct(r.short, r.full),
      requireOutputDiff: pct(r.requireOutput, r.full),
      combinedDiff: pct(r.combined, r.full),
    })),
    notes: [
      'Tokens of the whole tool-list section (heading + one compact tools/list entry per line, as B1 renders it; $ref internal: the tools/list document with its $defs). Retrieval is not included: it depends on the query (see adol-mechanisms).',
      '$ref: only hoists whose measured token change is negative are kept, and the list is kept as it was when the whole deduplicated section is not smaller; a catalog with 0 $defs hoisted is unchanged. External: the per-turn list plus, once per session, the template files.',
      'requireOutput adds its offer only to tools with an output schema that has properties (none of the GitHub, Slack, Supabase or archived dumps publish one).',
      'Lossless: @apidevtools/json-schema-ref-parser dereference of the internal, external and combined lists deep-equals their input (yes = all three).',
    ],
  };
}
