import type { McpTool } from '../../catalog/types.ts';
import type { TokenCounter } from '../../tokens/counter.ts';
import { canonicalJson, isPlainObject } from './json.ts';
import { ownValue } from '../../util/json.ts';

/**
 * The duplication statistics of the ADOL draft §2.1 and the MCP proposal, computed the way
 * catalogs/real/README.md says the proposal counted them: IDENTICAL definitions, not
 * presence.
 *
 * - owner / repo: tools whose top-level `inputSchema.properties.owner` (`.repo`) equals the
 *   catalog's most common definition of it (canonical, key-sorted JSON); `present` counts any
 *   definition.
 * - required ["owner","repo"]: tools whose `inputSchema.required` is exactly that list (in that
 *   order; `anyOrder` also counts ["repo","owner"]).
 * - repetition rate (ours; the draft gives 9.84% without a definition): the share of the tool
 *   list's tokens that are repeated copies. Units of content are the top-level input
 *   properties as written (`"name":{definition}`, identical name AND definition) and the
 *   `"required":[...]` lists; every unit that occurs in ≥ 2 tools contributes
 *   (occurrences − 1) × its tokens (one copy is needed). Denominator: the tokens of every
 *   tool's compact JSON (`JSON.stringify(tool)`, as tools/list carries it), summed.
 * - three-field rate: the same, restricted to the owner/repo modal definitions and the
 *   ["owner","repo"] list — the content the draft's figure shows.
 * - dup share (summary.json's `dup_share_tokens`, for a cross-check): tokens of ALL
 *   occurrences of top-level property definitions (value only) that occur in ≥ 2 tools.
 *
 * All token counts use the run's tokenizer; counts are summed per string, not per prompt.
 */
export interface FieldDuplication {
  present: number;
  identical: number;
  distinct: number;
  modal?: unknown;
}

export interface DuplicationStats {
  catalog: string;
  tools: number;
  totalTokens: number;
  owner: FieldDuplication;
  repo: FieldDuplication;
  requiredOwnerRepo: number;
  requiredOwnerRepoAnyOrder: number;
  /** Distinct repeated units (properties by name+definition, required lists). */
  repeatedUnits: number;
  repeatedTokens: number;
  repetitionRate: number;
  threeFieldTokens: number;
  threeFieldRate: number;
  dupTokens: number;
  dupShare: number;
}

function topProps(t: McpTool): Record<string, unknown> {
  const p = t.inputSchema?.properties;
  return isPlainObject(p) ? p : {};
}

function fieldDup(tools: readonly McpTool[], field: string): FieldDuplication {
  const counts = new Map<string, { n: number; value: unknown; first: number }>();
  let present = 0;
  tools.forEach((t, i) => {
    const props = topProps(t);
    const value = ownValue(props, field);
    if (value === undefined) return;
    present++;
    const c = canonicalJson(value);
    const e = counts.get(c);
    if (e) e.n++;
    else counts.set(c, { n: 1, value, first: i });
  });
  // Modal definition; ties go to the one seen first.
  let best: { n: number; value: unknown; first: number } | undefined;
  for (const e of counts.values()) if (!best || e.n > best.n || (e.n === best.n && e.first < best.first)) best = e;
  return { present, identical: best?.n ?? 0, distinct: counts.size, modal: best?.value };
}

export function duplicationStats(catalog: string, tools: readonly McpTool[], tokens: TokenCounter): DuplicationStats {
  const totalTokens = tools.reduce((s, t) => s + tokens.count(JSON.stringify(t)), 0);
  const owner = fieldDup(tools, 'owner');
  const repo = fieldDup(tools, 'repo');
  const req = tools.map((t) => (Array.isArray(t.inputSchema?.required) ? (t.inputSchema.required as unknown[]) : undefined));
  const requiredOwnerRepo = req.filter((r) => r && r.length === 2 && r[0] === 'owner' && r[1] === 'repo').length;
  const requiredOwnerRepoAnyOrder = req.filter((r) => r && r.length === 2 && r.includes('owner') && r.includes('repo')).length;

  // Units as written: "name":definition and "required":[...]; grouped by canonical form, counted per distinct tool.
  const units = new Map<string, { text: string; tools: Set<number> }>();
  const addUnit = (key: string, text: string, tool: number) => {
    let u = units.get(key);
    if (!u) units.set(key, (u = { text, tools: new Set() }));
    u.tools.add(tool);
  };
  tools.forEach((t, i) => {
    for (const [name, def] of Object.entries(topProps(t)))
      addUnit(`p:${name}:${canonicalJson(def)}`, `${JSON.stringify(name)}:${JSON.stringify(def)}`, i);
    const r = req[i];
    if (r) addUnit(`r:${JSON.stringify(r)}`, `"required":${JSON.stringify(r)}`, i);
  });
  let repeatedUnits = 0;
  let repeatedTokens = 0;
  for (const u of units.values()) {
    if (u.tools.size < 2) continue;
    repeatedUnits++;
    repeatedTokens += (u.tools.size - 1) * tokens.count(u.text);
  }

  const three: string[] = [];
  if (owner.identical >= 2) three.push(`p:owner:${canonicalJson(owner.modal)}`);
  if (repo.identical >= 2) three.push(`p:repo:${canonicalJson(repo.modal)}`);
  three.push('r:["owner","repo"]');
  let threeFieldTokens = 0;
  for (const key of three) {
    const u = units.get(key);
    if (u && u.tools.size >= 2) threeFieldTokens += (u.tools.size - 1) * tokens.count(u.text);
  }

  // summary.json's dup share: definition identity only, all occurrences, groups in ≥ 2 distinct tools.
  const defs = new Map<string, { texts: string[]; tools: Set<number> }>();
  tools.forEach((t, i) => {
    for (const def of Object.values(topProps(t))) {
      const c = canonicalJson(def);
      let g = defs.get(c);
      if (!g) defs.set(c, (g = { texts: [], tools: new Set() }));
      g.texts.push(JSON.stringify(def));
      g.tools.add(i);
    }
  });
  let dupTokens = 0;
  for (const g of defs.values()) if (g.tools.size >= 2) dupTokens += g.texts.reduce((s, x) => s + tokens.count(x), 0);

  const share = (n: number) => (totalTokens ? n / totalTokens : 0);
  return {
    catalog,
    tools: tools.length,
    totalTokens,
    owner,
    repo,
    requiredOwnerRepo,
    requiredOwnerRepoAnyOrder,
    repeatedUnits,
    repeatedTokens,
    repetitionRate: share(repeatedTokens),
    threeFieldTokens,
    threeFieldRate: share(threeFieldTokens),
    dupTokens,
    dupShare: share(dupTokens),
  };
}
