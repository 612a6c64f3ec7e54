import $RefParser from '@apidevtools/json-schema-ref-parser';
import type { McpTool } from '../../catalog/types.ts';
import type { TokenCounter } from '../../tokens/counter.ts';
import { canonicalJson, deepClone, getSlot, isPlainObject, setSlot, walkSchema, type Slot, type SlotKind } from './json.ts';
import { cached, runCache } from '../../util/run-scope.ts';

/**
 * ADOL mechanism A: schema deduplication with JSON `$ref` (draft §3.1, proposal "Reference
 * Local Definition" / "Reference external files").
 *
 * Repeated sub-values of the tool list — property definitions, array `items` schemas,
 * `required` lists, `enum` lists, whole input or output schemas, at any depth of
 * inputSchema/outputSchema — are hoisted into named definitions and replaced by a pointer
 * `{"$ref": ...}`. Two placements:
 *
 * - internal: the definitions live in ONE `$defs` object of the tools/list result itself, and
 *   the tool list in the prompt is that whole result document:
 *       {"$defs":{
 *       "owner":{"description":"Repository owner","type":"string"},
 *       },"tools":[
 *       {"name":"get_issue","inputSchema":{"properties":{"owner":{"$ref":"#/$defs/owner"},...}}},
 *       ]}
 *   so `#/$defs/owner` resolves against the document root and the prompt is self-contained
 *   (it is valid JSON; `$RefParser.dereference` on it gives back the original tools).
 * - external: the definitions are shared template files (`owner.json`) the host fetches and
 *   caches once per session; tools point at them by relative URI (`{"$ref":"owner.json"}`)
 *   and stay one self-contained JSON per line, as in B1.
 *
 * Only hoisting that saves tokens is kept (a pointer costs tokens too): candidates are
 * ranked by their estimated saving and each is accepted only if the measured token change of
 * every line it touches (the tool lines, the definition lines and the new definition) is
 * negative. At the end the whole rendered section is counted once more; if it is not smaller
 * than the plain B1 rendering, nothing is hoisted.
 *
 * `required` and `enum` pointers stand where JSON Schema expects an array, so they are JSON
 * References (RFC 6901 pointers resolved by any JSON Reference resolver such as
 * @apidevtools/json-schema-ref-parser), not JSON Schema 2020-12 `$ref` keywords: a strict
 * validator must dereference the list first. `kinds` switches them off.
 */

export type RefVariant = 'internal' | 'external';

export interface DedupConfig {
  /** Positions that may be hoisted. */
  kinds: Record<SlotKind, boolean>;
  /** Minimum occurrences of an identical value before it is considered (≥ 2). */
  minOccurrences: number;
}

export const DEFAULT_DEDUP_CONFIG: DedupConfig = {
  kinds: { property: true, items: true, required: true, enum: true, 'input-schema': true, 'output-schema': true },
  minOccurrences: 2,
};

export interface HoistedDef {
  name: string;
  kind: SlotKind;
  value: unknown;
  /** Pointers to it in the tool list and in other definitions. */
  uses: number;
  /** Token change measured when it was accepted (negative: saved; see dedupeTools). */
  deltaTokens: number;
}

export interface DedupResult {
  variant: RefVariant;
  /** The tools with pointers (deep copies; the input is not modified). */
  tools: McpTool[];
  /** Hoisted definitions, in the order they were accepted; empty when nothing paid off. */
  defs: HoistedDef[];
}

/** Headings of the rendered sections (part of the measured prompt). */
export const B1_HEADING = 'Available tools (MCP tools/list):';
export const INTERNAL_HEADING = 'Available tools (MCP tools/list result; "$ref" is a JSON reference into its "$defs"):';
const EXTERNAL_HEADING = 'Available tools (MCP tools/list; "$ref" names a shared schema template):';
const TEMPLATES_HEADING = 'Shared schema templates (ADOL; fetched and cached by the host once per session):';

/** Base URI the external templates are resolved against in the lossless check. */
const TEMPLATE_BASE = 'https://adol.invalid/templates/';

function pointerFor(variant: RefVariant, name: string): string {
  return variant === 'internal' ? `#/$defs/${name}` : `${name}.json`;
}

function defKey(variant: RefVariant, name: string): string {
  return variant === 'internal' ? name : `${name}.json`;
}

/** A definition line inside `$defs` (internal) or the template map (external). */
function defLine(variant: RefVariant, name: string, value: unknown): string {
  return `${JSON.stringify(defKey(variant, name))}:${JSON.stringify(value)},\n`;
}

/** A tool line: with a trailing comma inside the internal document, plain in B1/external. */
function toolLine(variant: RefVariant, tool: McpTool): string {
  return `${JSON.stringify(tool)}${variant === 'internal' ? ',' : ''}\n`;
}

/** A candidate slot: a value that may be hoisted, where it stands now. */
interface Entry {
  canon: string;
  slot: Slot;
  /** The value at the slot (an object or array). */
  value: object;
  /** Its root, by ordinal: the tools in list order, then the definitions in the order accepted. */
  ord: number;
  /** Its place in its root's walk (document order). */
  idx: number;
  /** Tokens of the value where it stands (`"owner":{...}`), counted when first needed. */
  valueTokens: number | undefined;
  /** For an entry of a tool's first walk: that walk and the slot's place in it (to keep valueTokens). */
  first: { walk: ToolWalk; k: number } | undefined;
  /** Set when its root's entries are replaced and it is not among the new ones (see setEntries). */
  gone: boolean;
}

/** An entry with every field set (one object shape for all: they are many, and hot). */
function entry(canon: string, slot: Slot, value: object, ord: number, idx: number, first?: Entry['first']): Entry {
  return { canon, slot, value, ord, idx, valueTokens: first?.walk.valueTokens[first.k], first, gone: false };
}

/** The entries of one canonical value, in root order, then document order. */
interface Group {
  canon: string;
  entries: Entry[];
  /** Name and estimated saving of the last ranking; dropped when the entries change. */
  ranked?: { name: string; est: number };
}

type Root = { tool: number } | { def: string };

/**
 * What the first walk of an input tool found, kept across calls: the pipelines deduplicate
 * overlapping subsets of the same tool objects turn after turn. Used only while the tool's
 * JSON text, the enabled kinds and the counter are the same (a changed tool is walked again).
 */
interface ToolWalk {
  text: string;
  kinds: string;
  tokens: TokenCounter;
  /** Per slot visited, in walk order: the canonical text of a candidate value, else undefined. */
  canons: (string | undefined)[];
  /** Per slot visited: the candidate's tokens where it stands, once counted. */
  valueTokens: (number | undefined)[];
}

const TOOL_WALKS = runCache('ADOL first walks by input tool', () => new WeakMap<object, ToolWalk>());
const SLOT_KINDS = Object.keys(DEFAULT_DEDUP_CONFIG.kinds) as SlotKind[];

/**
 * The search keeps its state between rounds instead of rebuilding it from every root: after a
 * definition is accepted only the entries of the roots it touched are updated, only the groups
 * whose entries changed are estimated again, and canonical texts of unchanged sub-values are
 * reused. The decisions are those of a full rebuild each round (same groups, entry order,
 * names and estimates); a tool's first walk is reused across calls (ToolWalk).
 */
export function dedupeTools(
  input: readonly McpTool[],
  variant: RefVariant,
  tokens: TokenCounter,
  config: DedupConfig = DEFAULT_DEDUP_CONFIG,
): DedupResult {
  const search = new DedupSearch(input, variant, tokens, config);
  for (let accepted = search.acceptBest(); accepted; accepted = search.acceptBest()) search.update(accepted);
  return search.result();
}

/** A definition just accepted: its group, its name and the roots that now hold its pointer. */
interface Accepted {
  g: Group;
  name: string;
  roots: number[];
}

/** One call's search: the tools being rewritten, the definitions so far, and the groups of candidate values. */
class DedupSearch {
  /** Each input tool's JSON text (for its ToolWalk and the plain count). */
  private readonly texts: string[];
  private readonly tools: McpTool[];
  private readonly defs = new Map<string, HoistedDef>();
  /** Our pointers. */
  private readonly ours = new WeakSet<object>();
  /** Canonical texts whose definition did not pay off. */
  private readonly rejected = new Set<string>();
  private readonly minOcc: number;
  private readonly kinds: string;
  private readonly toolWalks = cached(TOOL_WALKS);
  // References the catalog itself carries (Pydantic's `#/$defs/Address`): no definition of
  // ours may get the same pointer, so ours and theirs never mix in the document or the check.
  private readonly theirs = new Set<string>();
  // Roots by ordinal: the tools, then each definition once accepted.
  private readonly roots: Root[];
  // Tools that got a pointer (the others still read as their input's text).
  private readonly modified = new Set<number>();
  // Canonical texts for the whole call, by object. A value's text changes only when a slot
  // below it gets a pointer, so then the texts of that slot's holder and of every object above
  // it are forgotten; `parent` (recorded by the walks) leads up the document.
  private readonly canon = new Map<object, string>();
  private readonly parent = new Map<object, object>();
  // Whether a value holds a `$ref` that is not one of our pointers, by object. It never changes
  // during a call: only values without such a ref are replaced, and by our pointers.
  private readonly foreign = new Map<object, boolean>();
  // Groups by canonical text, updated root by root: a group whose entries change is re-sorted
  // (root, then document order: the order a rebuild from every root would give) and re-ranked.
  private readonly groups = new Map<string, Group>();
  private readonly entriesByRoot: Entry[][] = [];
  private readonly changed = new Set<Group>();

  constructor(
    private readonly input: readonly McpTool[],
    private readonly variant: RefVariant,
    private readonly tokens: TokenCounter,
    private readonly config: DedupConfig,
  ) {
    // deepClone, keeping each tool's text.
    this.texts = input.map((t) => JSON.stringify(t));
    this.tools = input.map((_, i) => this.clone(i));
    this.minOcc = Math.max(2, config.minOccurrences);
    this.kinds = SLOT_KINDS.map((k) => (config.kinds[k] ? 1 : 0)).join('');
    collectRefs(input, this.theirs);
    this.roots = this.tools.map((_, i) => ({ tool: i }));
    this.roots.forEach((_, ord) => this.setEntries(ord, this.firstEntries(ord)));
    this.settle();
  }

  private clone(i: number): McpTool {
    return this.input[i] === undefined ? this.input[i] : (JSON.parse(this.texts[i]!) as McpTool);
  }

  private rootLine(root: Root): string {
    return 'tool' in root
      ? toolLine(this.variant, this.tools[root.tool]!)
      : defLine(this.variant, root.def, this.defs.get(root.def)!.value);
  }

  private forget(holder: object, above: Set<object>): void {
    for (let o: object | undefined = holder; o && !above.has(o); o = this.parent.get(o)) {
      this.canon.delete(o);
      above.add(o);
    }
  }

  private readonly hasForeignRef = (value: unknown): boolean => {
    if (typeof value !== 'object' || value === null) return false;
    let known = this.foreign.get(value);
    if (known === undefined) {
      if (Array.isArray(value)) known = value.some(this.hasForeignRef);
      else if (this.ours.has(value)) known = false;
      else known = '$ref' in value || Object.values(value).some(this.hasForeignRef);
      this.foreign.set(value, known);
    }
    return known;
  };

  /** The canonical text of a slot's value if it is a candidate, else undefined. */
  private candidate(slot: Slot, value: unknown): string | undefined {
    if (!this.config.kinds[slot.kind]) return undefined;
    const isSchemaKind = slot.kind === 'property' || slot.kind === 'items' || slot.kind === 'input-schema' || slot.kind === 'output-schema';
    if (isSchemaKind ? !isPlainObject(value) : !Array.isArray(value)) return undefined;
    if (isPlainObject(value) && this.ours.has(value)) return undefined;
    if (this.hasForeignRef(value)) return undefined;
    return canonicalJson(value, this.canon);
  }

  /** Visits every slot of a root (a tool, or a definition's value), recording parents. */
  private walkRoot(ord: number, visit: (slot: Slot, value: unknown) => void): void {
    const { parent } = this;
    const linked = (slot: Slot, value: unknown) => {
      if (typeof value === 'object' && value !== null) parent.set(value, slot.holder);
      if (slot.holder !== slot.schema) parent.set(slot.holder, slot.schema);
      visit(slot, value);
    };
    const root = this.roots[ord]!;
    if ('tool' in root) {
      const rec = this.tools[root.tool] as unknown as Record<string, unknown>;
      for (const key of ['inputSchema', 'outputSchema'] as const) {
        if (!isPlainObject(rec[key])) continue;
        const kind: SlotKind = key === 'inputSchema' ? 'input-schema' : 'output-schema';
        const hint = key === 'inputSchema' ? 'input' : 'output';
        linked({ holder: rec, schema: rec, key, context: `${JSON.stringify(key)}:`, kind, hint }, rec[key]);
        if (!this.ours.has(rec[key] as object)) walkSchema(rec[key], linked);
      }
    } else {
      const d = this.defs.get(root.def)!;
      if (isPlainObject(d.value)) walkSchema(d.value, linked);
    }
  }

  /** A tool's candidate slots before anything is replaced, from its ToolWalk when there is one. */
  private firstEntries(ord: number): Entry[] {
    const { texts, kinds, tokens } = this;
    const tool = this.input[ord] as unknown;
    const cacheable = typeof tool === 'object' && tool !== null;
    let walk = cacheable ? this.toolWalks.get(tool) : undefined;
    const known = walk !== undefined && walk.text === texts[ord] && walk.kinds === kinds && walk.tokens === tokens;
    if (!known) walk = { text: texts[ord]!, kinds, tokens, canons: [], valueTokens: [] };
    const w = walk!;
    const out: Entry[] = [];
    let k = 0;
    this.walkRoot(ord, (slot, value) => {
      const i = k++;
      const text = known ? w.canons[i] : (w.canons[i] = this.candidate(slot, value));
      if (text === undefined) return;
      if (known) {
        // What `candidate` would have found and computed.
        this.canon.set(value as object, text);
        this.foreign.set(value as object, false);
      }
      out.push(entry(text, slot, value as object, ord, out.length, { walk: w, k: i }));
    });
    if (cacheable && !known) this.toolWalks.set(tool, w);
    return out;
  }

  /** A definition's candidate slots (its value is a fresh copy: walked). */
  private defEntries(ord: number): Entry[] {
    const out: Entry[] = [];
    this.walkRoot(ord, (slot, value) => {
      const text = this.candidate(slot, value);
      if (text !== undefined) out.push(entry(text, slot, value as object, ord, out.length));
    });
    return out;
  }

  /**
   * A root's candidate slots after some of them got pointers, without walking it again: the
   * entries at or below a replaced value are gone (a walk does not enter a pointer), those
   * above a new pointer get their new text, the others stay as they are (in document order:
   * `idx` keeps its gaps).
   */
  private entriesAfter(ord: number, replaced: ReadonlySet<object>, above: ReadonlySet<object>): Entry[] {
    const out: Entry[] = [];
    for (const e of this.entriesByRoot[ord]!) {
      let inside = false;
      for (let o: object | undefined = e.value; o && !inside; o = this.parent.get(o)) inside = replaced.has(o);
      if (inside) continue;
      out.push(above.has(e.value) ? entry(canonicalJson(e.value, this.canon), e.slot, e.value, ord, e.idx) : e);
    }
    return out;
  }

  private setEntries(ord: number, list: Entry[]): void {
    const { groups, changed, entriesByRoot } = this;
    // Entries still in the list (the same objects) keep their place in their groups; the
    // others leave (`gone`).
    for (const e of entriesByRoot[ord] ?? []) e.gone = true;
    for (const e of list) {
      if (e.gone) {
        e.gone = false;
        continue;
      }
      let g = groups.get(e.canon);
      if (!g) groups.set(e.canon, (g = { canon: e.canon, entries: [] }));
      g.entries.push(e);
      changed.add(g);
    }
    for (const e of entriesByRoot[ord] ?? []) if (e.gone) changed.add(groups.get(e.canon)!);
    entriesByRoot[ord] = list;
  }

  private settle(): void {
    for (const g of this.changed) {
      g.entries = g.entries.filter((e) => !e.gone);
      if (!g.entries.length) this.groups.delete(g.canon);
      g.entries.sort((a, b) => a.ord - b.ord || a.idx - b.idx);
      g.ranked = undefined;
    }
    this.changed.clear();
  }

  /** The token change of hoisting a group under `name`, from its fragments: the definition line, each pointer for each value. */
  private estimate(g: Group, name: string): number {
    const { variant, tokens } = this;
    const ptr = JSON.stringify({ $ref: pointerFor(variant, name) });
    const first = g.entries[0]!.slot;
    let delta = tokens.count(defLine(variant, name, getSlot(first.holder, first.key)));
    for (const e of g.entries) {
      if (e.valueTokens === undefined) {
        e.valueTokens = tokens.count(`${e.slot.context}${JSON.stringify(getSlot(e.slot.holder, e.slot.key))}`);
        if (e.first) e.first.walk.valueTokens[e.first.k] = e.valueTokens;
      }
      delta += tokens.count(`${e.slot.context}${ptr}`) - e.valueTokens;
    }
    return delta;
  }

  /** The groups worth trying, the largest estimated saving first (ties: by canonical text). */
  private ranked(): { g: Group; name: string; est: number }[] {
    const { defs, variant } = this;
    const ranked: { g: Group; name: string; est: number }[] = [];
    for (const g of this.groups.values()) {
      if (g.entries.length < this.minOcc || this.rejected.has(g.canon)) continue;
      // Unchanged entries keep their estimate, unless the name it was made for got taken.
      if (!g.ranked || defs.has(g.ranked.name)) {
        const first = g.entries[0]!.slot;
        const name = uniqueName(first.kind, first.hint, defs, (n) => this.theirs.has(pointerFor(variant, n)));
        g.ranked = { name, est: this.estimate(g, name) };
      }
      if (g.ranked.est < 0) ranked.push({ g, ...g.ranked });
    }
    ranked.sort((a, b) => a.est - b.est || (a.g.canon < b.g.canon ? -1 : a.g.canon > b.g.canon ? 1 : 0));
    return ranked;
  }

  /** Hoists the first ranked group whose measured change saves tokens; the others tried are undone and rejected. */
  acceptBest(): Accepted | undefined {
    const { variant, tokens, defs, roots } = this;
    for (const { g, name, est } of this.ranked()) {
      // A clear saving (more than one token per pointer, the most a seam can shift a
      // fragment's count) is accepted on the fragment measurement; a marginal one is measured
      // exactly on every line it touches.
      const clear = est + g.entries.length + 1 < 0;
      const touched = [...new Set(g.entries.map((e) => e.ord))];
      const lines = () => touched.reduce((s, ord) => s + tokens.count(this.rootLine(roots[ord]!)), 0);
      const before = clear ? 0 : lines();
      const first = g.entries[0]!.slot;
      const value = deepClone(getSlot(first.holder, first.key));
      const old = g.entries.map((e) => getSlot(e.slot.holder, e.slot.key));
      g.entries.forEach((e) => {
        const p = { $ref: pointerFor(variant, name) };
        this.ours.add(p);
        setSlot(e.slot.holder, e.slot.key, p);
      });
      const def: HoistedDef = { name, kind: first.kind, value, uses: g.entries.length, deltaTokens: 0 };
      defs.set(name, def);
      const delta = clear ? est : lines() + tokens.count(defLine(variant, name, value)) - before;
      if (delta < 0) {
        def.deltaTokens = delta;
        return { g, name, roots: touched };
      }
      // Undo.
      defs.delete(name);
      g.entries.forEach((e, i) => setSlot(e.slot.holder, e.slot.key, old[i]));
      this.rejected.add(g.canon);
    }
    return undefined;
  }

  /** After a definition is accepted: the entries of the roots it touched, and the new definition's own. */
  update(accepted: Accepted): void {
    const { roots } = this;
    // The holders of the new pointers and everything above them now read differently.
    const above = new Set<object>();
    for (const e of accepted.g.entries) this.forget(e.slot.holder, above);
    const replaced = new Set(accepted.g.entries.map((e) => e.value));
    for (const ord of accepted.roots) if (ord < this.tools.length) this.modified.add(ord);
    for (const ord of accepted.roots) this.setEntries(ord, this.entriesAfter(ord, replaced, above));
    roots.push({ def: accepted.name });
    this.setEntries(roots.length - 1, this.defEntries(roots.length - 1));
    this.settle();
  }

  /** The rewritten tools and their definitions, unless the whole section is not smaller than the plain rendering. */
  result(): DedupResult {
    const { variant, tokens, texts, input } = this;
    const result: DedupResult = { variant, tools: this.tools, defs: [...this.defs.values()] };
    recountUses(result);
    // Whole-section check against the plain rendering (the framing of the internal document
    // and the heading are only paid here).
    if (result.defs.length) {
      // countByLine(renderPlain(input)) and countByLine(renderInternal(result)), without building
      // the sections: a tool that got no pointer is its input's text.
      const plain = countLines([B1_HEADING, ...texts], tokens);
      const deduped =
        variant === 'internal'
          ? countLines(
              internalLines(result, INTERNAL_HEADING, (t, i) => (this.modified.has(i) ? JSON.stringify(t) : texts[i]!)),
              tokens,
            )
          : countByLine(renderExternalList(result), tokens) + countByLine(renderTemplates(result), tokens);
      if (deduped >= plain) return { variant, tools: input.map((_, i) => this.clone(i)), defs: [] };
    }
    return result;
  }
}

/**
 * Tokens of a rendered section, summed line by line. Exact: every line starts with a
 * non-space character and ends with a newline, where cl100k/o200k pre-tokenisation always
 * splits (see src/prompt/sections.ts); per-line counts are memoised, so lists that share
 * lines (the same tools on another turn) are cheap to count.
 */
export function countByLine(text: string, tokens: TokenCounter): number {
  let n = 0;
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end + 1;
    n += tokens.count(text.slice(start, stop));
    start = stop;
  }
  return n;
}

/** countByLine of the lines joined (each with its newline; none holds one: JSON escapes it). */
function countLines(lines: readonly string[], tokens: TokenCounter): number {
  let n = 0;
  for (const line of lines) n += tokens.count(`${line}\n`);
  return n;
}

/** Counts the pointers to each definition in the final tool list and definitions. */
function recountUses(result: DedupResult): void {
  const counts = new Map<string, number>();
  const scan = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(scan);
    else if (isPlainObject(v)) {
      if (typeof v.$ref === 'string' && Object.keys(v).length === 1) counts.set(v.$ref, (counts.get(v.$ref) ?? 0) + 1);
      else Object.values(v).forEach(scan);
    }
  };
  result.tools.forEach(scan);
  result.defs.forEach((d) => scan(d.value));
  for (const d of result.defs) d.uses = counts.get(pointerFor(result.variant, d.name)) ?? 0;
}

const SHORT_PREFIX: Record<SlotKind, string> = {
  property: '',
  items: 'item',
  required: 'req',
  enum: 'enum',
  'input-schema': 'input',
  'output-schema': 'output',
};

/** A short, readable, unique definition name: the property name, else a kind prefix. */
function uniqueName(kind: SlotKind, hint: string, defs: ReadonlyMap<string, HoistedDef>, taken: (name: string) => boolean): string {
  let base = kind === 'property' ? hint.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') : SHORT_PREFIX[kind];
  if (!base) base = 'def';
  if (base in Object.prototype) base = `${base}_`;
  if (!defs.has(base) && !taken(base) && kind === 'property') return base;
  for (let i = 2; ; i++) {
    const name = kind === 'property' ? `${base}_${i}` : `${base}${i - 1}`;
    if (!defs.has(name) && !taken(name)) return name;
  }
}

/** Every string `$ref` value inside `value`. */
function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => collectRefs(v, into));
  else if (isPlainObject(value)) {
    if (typeof value.$ref === 'string') into.add(value.$ref);
    Object.values(value).forEach((v) => collectRefs(v, into));
  }
}

/**
 * Renames the `$ref` key of every object that is not one of our pointers (the catalog's own
 * references, which may point at files, URLs, cycles or nothing), so the resolver expands
 * ours only; `restoreTheirRefs` puts them back, keeping key order.
 */
function maskTheirRefs(value: unknown, ours: ReadonlySet<string>, mask: string): unknown {
  if (Array.isArray(value)) return value.map((v) => maskTheirRefs(v, ours, mask));
  if (!isPlainObject(value)) return value;
  const isOurs = typeof value.$ref === 'string' && Object.keys(value).length === 1 && ours.has(value.$ref);
  if (isOurs) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k === '$ref' ? mask : k, maskTheirRefs(v, ours, mask)]));
}

function restoreTheirRefs(value: unknown, mask: string): unknown {
  if (Array.isArray(value)) return value.map((v) => restoreTheirRefs(v, mask));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k === mask ? '$ref' : k, restoreTheirRefs(v, mask)]));
}

/** A key that occurs nowhere in `value`. */
function unusedKey(value: unknown): string {
  const text = JSON.stringify(value);
  let key = 'adol-masked-$ref';
  while (text.includes(JSON.stringify(key))) key += '_';
  return key;
}

/** B1's rendering: one compact tools/list entry per line under a heading. */
export function renderPlain(tools: readonly McpTool[], heading = B1_HEADING): string {
  return `${[heading, ...tools.map((t) => JSON.stringify(t))].join('\n')}\n`;
}

/** The internal variant: the whole tools/list result document with its `$defs` (or B1 when none). */
export function renderInternal(result: DedupResult, heading = INTERNAL_HEADING, plainHeading = B1_HEADING): string {
  if (result.variant !== 'internal') throw new Error('renderInternal: not an internal dedup result');
  if (!result.defs.length) return renderPlain(result.tools, plainHeading);
  return `${internalLines(result, heading).join('\n')}\n`;
}

/** The lines of renderInternal's document (with definitions); `toolText` gives a tool's JSON. */
function internalLines(
  result: DedupResult,
  heading: string,
  toolText: (tool: McpTool, i: number) => string = (t) => JSON.stringify(t),
): string[] {
  const defLines = result.defs.map(
    (d, i) => `${JSON.stringify(d.name)}:${JSON.stringify(d.value)}${i < result.defs.length - 1 ? ',' : ''}`,
  );
  const toolLines = result.tools.map((t, i) => `${toolText(t, i)}${i < result.tools.length - 1 ? ',' : ''}`);
  return [heading, '{"$defs":{', ...defLines, '},"tools":[', ...toolLines, ']}'];
}

/** The external variant's per-turn list: one self-contained JSON per line, pointers are relative URIs. */
export function renderExternalList(result: DedupResult, heading = EXTERNAL_HEADING, plainHeading = B1_HEADING): string {
  return renderPlain(result.tools, result.defs.length ? heading : plainHeading);
}

/** The external templates as the host loads them into context once: `{"owner.json":{...},...}`. */
export function renderTemplates(result: DedupResult, heading = TEMPLATES_HEADING): string {
  if (!result.defs.length) return '';
  const lines = result.defs.map(
    (d, i) => `${JSON.stringify(defKey('external', d.name))}:${JSON.stringify(d.value)}${i < result.defs.length - 1 ? ',' : ''}`,
  );
  return `${[heading, '{', ...lines, '}'].join('\n')}\n`;
}

/** The internal document as an object: `{ $defs, tools }`. */
function internalDocument(result: DedupResult): { $defs?: Record<string, unknown>; tools: McpTool[] } {
  if (!result.defs.length) return { tools: result.tools };
  const $defs: Record<string, unknown> = {};
  for (const d of result.defs) setSlot($defs, d.name, d.value);
  return { $defs, tools: result.tools };
}

/** Template files by file name (external variant). */
export function templateFiles(result: DedupResult): Map<string, unknown> {
  return new Map(result.defs.map((d) => [defKey('external', d.name), d.value]));
}

/**
 * Expands every pointer with @apidevtools/json-schema-ref-parser and returns the tools. The
 * lossless property: the result deep-equals the tools that went into dedupeTools.
 */
export async function dereferenceDedup(result: DedupResult): Promise<McpTool[]> {
  // Only our pointers are expanded, and nothing is ever read from disk or the network: the
  // catalog's own `$ref`s are masked first, and the file and http resolvers are off.
  const ours = new Set(result.defs.map((d) => pointerFor(result.variant, d.name)));
  const mask = unusedKey({ tools: result.tools, defs: result.defs.map((d) => d.value) });
  const masked = <T>(v: T): T => maskTheirRefs(deepClone(v), ours, mask) as T;
  const opts = {
    dereference: { cloneReferences: true, circular: false as const },
    mutateInputSchema: false,
    resolve: { file: false, http: false },
  };
  if (result.variant === 'internal') {
    const doc = masked(internalDocument(result));
    const out = (await $RefParser.dereference(doc as never, opts)) as unknown as { tools: McpTool[] };
    return restoreTheirRefs(out.tools, mask) as McpTool[];
  }
  const files = new Map([...templateFiles(result)].map(([name, value]) => [name, masked(value)]));
  const out = (await $RefParser.dereference(`${TEMPLATE_BASE}tools-list.json`, masked({ tools: result.tools }) as never, {
    ...opts,
    resolve: {
      file: false,
      http: false,
      adol: {
        order: 1,
        canRead: (file: { url: string }) => file.url.startsWith(TEMPLATE_BASE),
        read: (file: { url: string }) => {
          const name = decodeURIComponent(file.url.slice(TEMPLATE_BASE.length));
          if (!files.has(name)) throw new Error(`ADOL template ${name} not found`);
          return JSON.stringify(files.get(name));
        },
      },
    },
  })) as unknown as { tools: McpTool[] };
  return restoreTheirRefs(out.tools, mask) as McpTool[];
}
