import type { Catalog, CatalogTool, McpTool } from '../catalog/types.ts';
import { serializeToolDefinition } from '../catalog/types.ts';
import { countByLine, dedupeTools, renderInternal, renderPlain } from '../pipelines/adol/dedup.ts';
import { shortDefinition } from '../pipelines/adol/short-mode.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { inlineRefs, type RefInlining } from '../catalog/refs.ts';
import { emptyParts, PARTS, splitDefinition, type DefinitionSplit, type PartTokens } from './split.ts';
import type { HostMeasure } from '../hosts/measure.ts';
import { ownValue } from '../util/json.ts';
import type { ToolSearchRule } from './tool-search-rule.ts';

/**
 * The token budget of a catalog's tool definitions: per server and per tool, each definition
 * split into its fields (split.ts), what two ADOL mechanisms would save on it, and the wire
 * versus inlined size of definitions that use `$ref`. The gate compares the WIRE sizes (what
 * tools/list carries, compact JSON per tool, as every other table of this project measures a
 * definition) with the limits.
 *
 * ADOL savings reuse src/pipelines/adol:
 * - `short`: the short tools/list definition (`shortDefinition`: no title, outputSchema,
 *   annotations, ...; description cut to its first sentence); exact per tool.
 * - `$ref`: internal `$ref` deduplication (`dedupeTools` + `renderInternal`) of the server's
 *   list. Hoisted definitions are shared, so the saving is a server figure: the tokens of the
 *   server's rendered list (ADOL's section, heading included) minus those of the deduplicated
 *   document. Per tool, `refLine` is the gross saving on that tool's own line before the shared
 *   `$defs` it points into are paid for.
 * - `both`: short definitions, then deduplicated, against the plain full list.
 * requireOutput (a response-side saving) and retrieval (per-turn selection) do not shrink a
 * definition and are not shown here; the bench measures them.
 *
 * With a host other than mcp-json (src/hosts), every figure is counted in the host's tokenizer,
 * the gate compares what the host sends (its rendering of each tool, and its per-request tokens
 * once in the total), and each definition shows how that follows from the compact JSON: minus
 * the fields the host drops, plus or minus what its own rendering of the kept fields makes of
 * them. ADOL short is measured as the host sends the short definition; ADOL $ref does not apply
 * (a provider's tool parameter takes one self-contained schema per tool).
 */
export interface BudgetLimits {
  /** Budget for the sum of every definition's tokens. */
  maxToolTokens?: number;
  /** Budget for each single definition. */
  perTool?: number;
}

/** A definition's `$ref` tokens: as the wire carries it and inlined, with what the inlining found. */
export interface RefSizes extends Omit<RefInlining, 'inlined'> {
  wire: number;
  inlined: number;
}

/** How a host's count of a definition follows from its compact JSON (host mode only). */
export interface HostShare {
  /** The compact tools/list JSON, in the host's tokenizer. */
  mcpJson: number;
  /** Tokens of the fields the host does not send. */
  dropped: number;
  /** What the host's own rendering of the fields it sends adds (+) or saves (−) against their JSON and its framing. */
  rendering: number;
}

export interface BudgetHost {
  id: string;
  label: string;
  tokenizerNote: string;
  /** The fields it sends ('all' for mcp-json). */
  sends: readonly string[] | 'all';
  /** Top-level fields of this catalog's definitions that the host drops. */
  droppedFields: string[];
  /** Added once to a request with tools, in `total.tokens`. */
  requestTokens: number;
  requestTokensNote: string;
  /** False under a provider profile (see above). */
  refApplies: boolean;
}

export interface ToolBudget {
  id: string;
  server: string;
  name: string;
  /** As the host sends it (compact tools/list JSON under mcp-json). */
  tokens: number;
  /** Host mode: how `tokens` follows from the compact JSON. */
  host?: HostShare & { droppedFields: string[] };
  parts: PartTokens;
  otherFields: string[];
  adol: { short: number; refLine: number };
  refs?: RefSizes;
  overPerTool: boolean;
}

export interface ServerBudget {
  server: string;
  tools: number;
  tokens: number;
  host?: HostShare;
  largest: { name: string; tokens: number };
  parts: PartTokens;
  adol: { short: number; ref: number; both: number; hoisted: number };
  refs: { tools: number; wire: number; inlined: number };
}

export interface BudgetReport {
  catalog: string;
  source: string;
  tokenizer: string;
  /** Where the catalog stands against the hosts' tool search auto rule (set by the budget command). */
  toolSearch?: ToolSearchRule;
  /** The host profile measured (src/hosts); absent: mcp-json, every definition as compact tools/list JSON. */
  host?: BudgetHost;
  limits: BudgetLimits;
  pass: boolean;
  violations: string[];
  total: Omit<ServerBudget, 'server' | 'largest'> & { servers: number };
  servers: ServerBudget[];
  /** Largest first (ties: catalog order). */
  tools: ToolBudget[];
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function addParts(into: PartTokens, p: PartTokens): void {
  for (const k of PARTS) into[k] += p[k];
}

/** ADOL's `$ref` saving on a list, measured as ADOL's pipelines render it. */
function refSaving(plainDefs: readonly McpTool[], defs: readonly McpTool[], tokens: TokenCounter) {
  const plain = countByLine(renderPlain(plainDefs), tokens);
  const result = dedupeTools(defs, 'internal', tokens);
  return { saving: plain - countByLine(renderInternal(result), tokens), result };
}

function addShares(into: HostShare, s: HostShare): void {
  into.mcpJson += s.mcpJson;
  into.dropped += s.dropped;
  into.rendering += s.rendering;
}

/**
 * `host` (optional): measure as this host sends the definitions, counting with its counter
 * (which must be `tokens`). Without it, or under mcp-json, every definition is its compact JSON.
 */
export function budgetReport(catalog: Catalog, tokens: TokenCounter, limits: BudgetLimits, hostMeasure?: HostMeasure): BudgetReport {
  const host = hostMeasure && !hostMeasure.profile.keepsPromptText ? hostMeasure : undefined;
  if (host && host.tokens !== tokens) throw new Error(`budget: host ${host.id} counts with another counter`);
  const m: Measuring = { tokens, limits, host, droppedFields: new Set() };
  const tools: ToolBudget[] = [];
  const servers: ServerBudget[] = [];
  for (const server of catalog.servers) {
    const { budget, rows } = serverBudget(catalog, server, m);
    servers.push(budget);
    tools.push(...rows);
  }
  const order = new Map(tools.map((t, i) => [t.id, i]));
  tools.sort((a, b) => b.tokens - a.tokens || order.get(a.id)! - order.get(b.id)!);
  // A request carrying the whole list adds the host's per-request tokens once.
  const requestTokens = host && tools.length ? host.requestTokens() : 0;
  const total = totalBudget(servers, tools.length, requestTokens, host !== undefined);
  const violations = limitViolations(total.tokens, tools, limits);
  return {
    catalog: catalog.name,
    source: catalog.source,
    tokenizer: tokens.tokenizer,
    ...(host ? { host: budgetHost(host, m.droppedFields, requestTokens) } : {}),
    limits,
    pass: violations.length === 0,
    violations,
    total,
    servers,
    tools,
  };
}

/** What every server's and tool's figures are measured with; `droppedFields` gathers the host's drops. */
interface Measuring {
  tokens: TokenCounter;
  limits: BudgetLimits;
  host: HostMeasure | undefined;
  droppedFields: Set<string>;
}

/** One server's tools (in catalog order) and their sums, with ADOL's savings on its list. */
function serverBudget(catalog: Catalog, server: string, m: Measuring): { budget: ServerBudget; rows: ToolBudget[] } {
  const { tokens, host } = m;
  const own = catalog.tools.filter((t) => t.server === server);
  const defs = own.map((t) => t.definition);
  const { saving: ref, result } = refSaving(defs, defs, tokens);
  const shorts = defs.map((d) => shortDefinition(d));
  const { saving: both } = refSaving(defs, shorts, tokens);
  const rows = own.map((t, i) => toolBudget(t, shorts[i]!, result.tools[i]!, m));
  const parts = emptyParts();
  rows.forEach((r) => addParts(parts, r.parts));
  const largest = rows.reduce((a, b) => (b.tokens > a.tokens ? b : a), rows[0]!);
  const withRefs = rows.filter((r) => r.refs);
  const shortSaves = sum(rows.map((r) => r.adol.short));
  let serverShare: HostShare | undefined;
  if (host) {
    serverShare = { mcpJson: 0, dropped: 0, rendering: 0 };
    for (const r of rows) addShares(serverShare, r.host!);
  }
  const budget: ServerBudget = {
    server,
    tools: rows.length,
    tokens: sum(rows.map((r) => r.tokens)),
    ...(serverShare ? { host: serverShare } : {}),
    largest: { name: largest.name, tokens: largest.tokens },
    parts,
    adol: host
      ? { short: shortSaves, ref: 0, both: shortSaves, hoisted: 0 }
      : { short: shortSaves, ref, both, hoisted: result.defs.length },
    refs: { tools: withRefs.length, wire: sum(withRefs.map((r) => r.refs!.wire)), inlined: sum(withRefs.map((r) => r.refs!.inlined)) },
  };
  return { budget, rows };
}

/** One definition: its fields, what the host makes of it, its `$ref` sizes and ADOL's savings on its own line. */
function toolBudget(t: CatalogTool, short: McpTool, deduped: McpTool, m: Measuring): ToolBudget {
  const { tokens, host, limits } = m;
  const split = splitDefinition(t.definition, tokens);
  const inl = inlineRefs(t.definition);
  const share = host ? hostShare(t.definition, split, host, m.droppedFields) : undefined;
  const total = share ? share.mcpJson - share.dropped + share.rendering : split.total;
  return {
    id: t.id,
    server: t.server,
    name: t.name,
    tokens: total,
    ...(share ? { host: share } : {}),
    parts: split.parts,
    otherFields: split.otherFields,
    adol: host
      ? { short: total - host.toolTokens(short), refLine: 0 }
      : {
          short: split.total - tokens.count(serializeToolDefinition(short)),
          refLine: split.total - tokens.count(serializeToolDefinition(deduped)),
        },
    refs: inl && {
      wire: split.total,
      inlined: tokens.count(serializeToolDefinition(inl.inlined)),
      refs: inl.refs,
      resolved: inl.resolved,
      external: inl.external,
      cyclic: inl.cyclic,
      broken: inl.broken,
      truncated: inl.truncated,
    },
    overPerTool: limits.perTool !== undefined && total > limits.perTool,
  };
}

/** How the host's count of a definition follows from its compact JSON: the fields it drops, then its rendering. */
function hostShare(
  definition: McpTool,
  split: DefinitionSplit,
  host: HostMeasure,
  droppedFields: Set<string>,
): NonNullable<ToolBudget['host']> {
  const sends = host.profile.sends;
  const isSent = (field: string) => sends === undefined || sends === 'all' || sends.includes(field);
  const dropped = Object.keys(split.byField).filter((f) => !isSent(f));
  dropped.forEach((f) => droppedFields.add(f));
  const droppedTokens = dropped.reduce((n, f) => n + (ownValue(split.byField, f) ?? 0), 0);
  const sent = host.toolTokens(definition);
  return { mcpJson: split.total, dropped: droppedTokens, rendering: sent - (split.total - droppedTokens), droppedFields: dropped };
}

/** The catalog's sums over its servers, plus the host's per-request tokens. */
function totalBudget(servers: readonly ServerBudget[], tools: number, requestTokens: number, hostMode: boolean): BudgetReport['total'] {
  const totalParts = emptyParts();
  servers.forEach((s) => addParts(totalParts, s.parts));
  let totalShare: HostShare | undefined;
  if (hostMode) {
    totalShare = { mcpJson: 0, dropped: 0, rendering: 0 };
    for (const s of servers) addShares(totalShare, s.host!);
  }
  return {
    servers: servers.length,
    tools,
    tokens: sum(servers.map((s) => s.tokens)) + requestTokens,
    ...(totalShare ? { host: totalShare } : {}),
    parts: totalParts,
    adol: {
      short: sum(servers.map((s) => s.adol.short)),
      ref: sum(servers.map((s) => s.adol.ref)),
      both: sum(servers.map((s) => s.adol.both)),
      hoisted: sum(servers.map((s) => s.adol.hoisted)),
    },
    refs: {
      tools: sum(servers.map((s) => s.refs.tools)),
      wire: sum(servers.map((s) => s.refs.wire)),
      inlined: sum(servers.map((s) => s.refs.inlined)),
    },
  };
}

/** One line per limit exceeded: the whole list first, then each definition, largest first. */
function limitViolations(totalTokens: number, tools: readonly ToolBudget[], limits: BudgetLimits): string[] {
  const violations: string[] = [];
  if (limits.maxToolTokens !== undefined && totalTokens > limits.maxToolTokens) {
    violations.push(
      `all tool definitions: ${fmt(totalTokens)} tokens > --max-tool-tokens ${fmt(limits.maxToolTokens)} (over by ${fmt(totalTokens - limits.maxToolTokens)})`,
    );
  }
  for (const t of tools)
    if (t.overPerTool)
      violations.push(`${t.id}: ${fmt(t.tokens)} tokens > --per-tool ${fmt(limits.perTool!)} (over by ${fmt(t.tokens - limits.perTool!)})`);
  return violations;
}

/** The host profile as the report names it. */
function budgetHost(host: HostMeasure, droppedFields: ReadonlySet<string>, requestTokens: number): BudgetHost {
  return {
    id: host.profile.id,
    label: host.profile.label,
    tokenizerNote: host.profile.tokenizerNote,
    sends: host.profile.sends,
    droppedFields: [...droppedFields],
    requestTokens,
    requestTokensNote: host.profile.requestTokensNote,
    refApplies: false,
  };
}

export function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
