import $RefParser from '@apidevtools/json-schema-ref-parser';
import type { McpTool } from '../../catalog/types.ts';
import type { TokenCounter } from '../../tokens/counter.ts';
import { canonicalJson, deepClone, getSlot, isPlainObject, setSlot, walkSchema, type Slot, type SlotKind } from './json.ts';

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

interface Entry {
  canon: string;
  slot: Slot;
  root: Root;
  /** Tokens of the value where it stands (`"owner":{...}`), counted when first needed. */
  valueTokens?: number;
}

interface Group {
  canon: string;
  kind: SlotKind;
  hint: string;
  value: unknown;
  entries: Entry[];
}

type Root = { tool: number } | { def: string };

export function dedupeTools(
  input: readonly McpTool[],
  variant: RefVariant,
  tokens: TokenCounter,
  config: DedupConfig = DEFAULT_DEDUP_CONFIG,
): DedupResult {
  const tools = input.map((t) => deepClone(t));
  const defs = new Map<string, HoistedDef>();
  const ours = new WeakSet<object>();
  const rejected = new Set<string>();
  const minOcc = Math.max(2, config.minOccurrences);
  // References the catalog itself carries (Pydantic's `#/$defs/Address`): no definition of
  // ours may get the same pointer, so ours and theirs never mix in the document or the check.
  const theirs = new Set<string>();
  collectRefs(input, theirs);

  const rootKey = (root: Root): string => ('tool' in root ? `t${root.tool}` : `d${root.def}`);
  const rootLine = (root: Root): string =>
    'tool' in root ? toolLine(variant, tools[root.tool]!) : defLine(variant, root.def, defs.get(root.def)!.value);

  /** The candidate slots of one root (a tool, or a definition's value). */
  const entriesOf = (root: Root): Entry[] => {
    const out: Entry[] = [];
    // Each sub-value's canonical text once per root (nothing is modified during the walk).
    const canon = new Map<object, string>();
    const visit = (slot: Slot, value: unknown) => {
      if (!config.kinds[slot.kind]) return;
      const isSchemaKind =
        slot.kind === 'property' || slot.kind === 'items' || slot.kind === 'input-schema' || slot.kind === 'output-schema';
      if (isSchemaKind ? !isPlainObject(value) : !Array.isArray(value)) return;
      if (isPlainObject(value) && ours.has(value)) return;
      if (hasForeignRef(value, ours)) return;
      out.push({ canon: canonicalJson(value, canon), slot, root });
    };
    if ('tool' in root) {
      const rec = tools[root.tool] as unknown as Record<string, unknown>;
      for (const key of ['inputSchema', 'outputSchema'] as const) {
        if (!isPlainObject(rec[key])) continue;
        const kind: SlotKind = key === 'inputSchema' ? 'input-schema' : 'output-schema';
        visit({ holder: rec, key, context: `${JSON.stringify(key)}:`, kind, hint: key === 'inputSchema' ? 'input' : 'output' }, rec[key]);
        if (!ours.has(rec[key] as object)) walkSchema(rec[key], visit);
      }
    } else {
      const d = defs.get(root.def)!;
      if (isPlainObject(d.value)) walkSchema(d.value, visit);
    }
    return out;
  };

  const entries = new Map<string, Entry[]>();
  tools.forEach((_, i) => entries.set(rootKey({ tool: i }), entriesOf({ tool: i })));

  const groupsNow = (): Group[] => {
    const groups = new Map<string, Group>();
    for (const list of entries.values()) {
      for (const e of list) {
        if (rejected.has(e.canon)) continue;
        let g = groups.get(e.canon);
        if (!g)
          groups.set(
            e.canon,
            (g = { canon: e.canon, kind: e.slot.kind, hint: e.slot.hint, value: getSlot(e.slot.holder, e.slot.key), entries: [] }),
          );
        g.entries.push(e);
      }
    }
    return [...groups.values()].filter((g) => g.entries.length >= minOcc);
  };

  const estimate = (g: Group, name: string): number => {
    const ptr = JSON.stringify({ $ref: pointerFor(variant, name) });
    let delta = tokens.count(defLine(variant, name, g.value));
    for (const e of g.entries) {
      e.valueTokens ??= tokens.count(`${e.slot.context}${JSON.stringify(getSlot(e.slot.holder, e.slot.key))}`);
      delta += tokens.count(`${e.slot.context}${ptr}`) - e.valueTokens;
    }
    return delta;
  };

  for (;;) {
    const ranked = groupsNow()
      .map((g) => {
        const name = uniqueName(g, defs, (n) => theirs.has(pointerFor(variant, n)));
        return { g, name, est: estimate(g, name) };
      })
      .filter((c) => c.est < 0)
      .sort((a, b) => a.est - b.est || (a.g.canon < b.g.canon ? -1 : a.g.canon > b.g.canon ? 1 : 0));
    let accepted: { g: Group; name: string; roots: Root[] } | undefined;
    for (const { g, name, est } of ranked) {
      // A clear saving (more than one token per pointer, the most a seam can shift a
      // fragment's count) is accepted on the fragment measurement; a marginal one is measured
      // exactly on every line it touches.
      const clear = est + g.entries.length + 1 < 0;
      const roots = new Map<string, Root>();
      for (const e of g.entries) roots.set(rootKey(e.root), e.root);
      const before = clear ? 0 : [...roots.values()].reduce((s, r) => s + tokens.count(rootLine(r)), 0);
      const value = deepClone(g.value);
      const old = g.entries.map((e) => getSlot(e.slot.holder, e.slot.key));
      g.entries.forEach((e) => {
        const p = { $ref: pointerFor(variant, name) };
        ours.add(p);
        setSlot(e.slot.holder, e.slot.key, p);
      });
      const def: HoistedDef = { name, kind: g.kind, value, uses: g.entries.length, deltaTokens: 0 };
      defs.set(name, def);
      const delta = clear
        ? est
        : [...roots.values()].reduce((s, r) => s + tokens.count(rootLine(r)), 0) + tokens.count(defLine(variant, name, value)) - before;
      if (delta < 0) {
        def.deltaTokens = delta;
        accepted = { g, name, roots: [...roots.values()] };
        break;
      }
      // Undo.
      defs.delete(name);
      g.entries.forEach((e, i) => setSlot(e.slot.holder, e.slot.key, old[i]));
      rejected.add(g.canon);
    }
    if (!accepted) break;
    for (const r of accepted.roots) entries.set(rootKey(r), entriesOf(r));
    entries.set(rootKey({ def: accepted.name }), entriesOf({ def: accepted.name }));
  }

  const result: DedupResult = { variant, tools, defs: [...defs.values()] };
  recountUses(result);
  // Whole-section check against the plain rendering (the framing of the internal document
  // and the heading are only paid here).
  if (result.defs.length) {
    const plain = countByLine(renderPlain(input, B1_HEADING), tokens);
    const deduped =
      variant === 'internal'
        ? countByLine(renderInternal(result), tokens)
        : countByLine(renderExternalList(result), tokens) + countByLine(renderTemplates(result), tokens);
    if (deduped >= plain) return { variant, tools: input.map((t) => deepClone(t)), defs: [] };
  }
  return result;
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

function hasForeignRef(value: unknown, ours: WeakSet<object>): boolean {
  if (Array.isArray(value)) return value.some((v) => hasForeignRef(v, ours));
  if (isPlainObject(value)) {
    if (ours.has(value)) return false;
    if ('$ref' in value) return true;
    return Object.values(value).some((v) => hasForeignRef(v, ours));
  }
  return false;
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
function uniqueName(g: Group, defs: ReadonlyMap<string, HoistedDef>, taken: (name: string) => boolean): string {
  let base = g.kind === 'property' ? g.hint.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') : SHORT_PREFIX[g.kind];
  if (!base) base = 'def';
  if (base in Object.prototype) base = `${base}_`;
  if (!defs.has(base) && !taken(base) && g.kind === 'property') return base;
  for (let i = 2; ; i++) {
    const name = g.kind === 'property' ? `${base}_${i}` : `${base}${i - 1}`;
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
  const defLines = result.defs.map(
    (d, i) => `${JSON.stringify(d.name)}:${JSON.stringify(d.value)}${i < result.defs.length - 1 ? ',' : ''}`,
  );
  const toolLines = result.tools.map((t, i) => `${JSON.stringify(t)}${i < result.tools.length - 1 ? ',' : ''}`);
  return `${[heading, '{"$defs":{', ...defLines, '},"tools":[', ...toolLines, ']}'].join('\n')}\n`;
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
