import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realPrimaryDumps } from '../../src/table/suites.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import type { McpTool } from '../../src/catalog/types.ts';
import { HostMeasure } from '../../src/hosts/measure.ts';
import { hostProfile } from '../../src/hosts/registry.ts';
import { fixTool, lintContext } from '../../src/lint/lint.ts';
import { isPlainObject } from '../../src/pipelines/adol/json.ts';

/**
 * `lint --fix` keeps every tool callable: for each tool a mechanical fix changed, the fixed
 * inputSchema accepts exactly the arguments the original accepts. Arguments come from the
 * original schema (mostly valid ones, so the property is not decided by type errors alone) and
 * from arbitrary JSON; both schemas are compiled by Ajv (JSON Schema 2020-12, as MCP's default).
 */

type Schema = Record<string, unknown>;

/** The target of a local pointer (`#/$defs/x`) in `root`. */
function resolve(root: Schema, ref: string): unknown {
  let at: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    const key = decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~');
    at = isPlainObject(at) && Object.hasOwn(at, key) ? at[key] : undefined;
  }
  return at;
}

/** Arguments shaped by a schema (a test stand-in for a model filling in a call; not a full generator). */
function argsFor(schema: unknown, root: Schema, depth = 0): fc.Arbitrary<unknown> {
  const any = fc.jsonValue({ maxDepth: 2 });
  if (!isPlainObject(schema) || depth > 5) return any;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/')) return argsFor(resolve(root, schema.$ref), root, depth + 1);
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.oneof(fc.constantFrom(...schema.enum), fc.string());
  if ('const' in schema) return fc.constant(schema.const);
  for (const kw of ['anyOf', 'oneOf'])
    if (Array.isArray(schema[kw]) && (schema[kw] as unknown[]).length)
      return fc.oneof(...(schema[kw] as unknown[]).map((s) => argsFor(s, root, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = isPlainObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required)
        ? schema.required.filter((k) => typeof k === 'string' && Object.hasOwn(props, k))
        : [];
      const shape = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, argsFor(s, root, depth + 1)]));
      return fc.record(shape, { requiredKeys: required as string[] });
    }
    case 'array':
      return fc.array(argsFor(schema.items, root, depth + 1), { maxLength: 3 });
    case 'string':
      return fc.string({ maxLength: 12 });
    case 'integer':
      return fc.integer({ min: -5, max: 200 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return any;
  }
}

function validator(ajv: Ajv2020, schema: Schema): ValidateFunction | undefined {
  const { $schema: _dialect, ...rest } = schema; // one dialect for both: 2020-12
  try {
    return ajv.compile(rest);
  } catch {
    return undefined; // a schema Ajv cannot compile (counted below)
  }
}

const LINT_FIXTURES = join(process.cwd(), 'test', 'fixtures', 'lint');
const sources = [
  ...realPrimaryDumps(process.cwd()),
  join(process.cwd(), 'catalogs', 'livemcpbench', 'catalog'),
  join(process.cwd(), 'catalogs', 'synthetic-120'),
  ...readdirSync(LINT_FIXTURES).map((r) => join(LINT_FIXTURES, r, 'triggers.json')),
];

describe('lint --fix keeps every tool callable', () => {
  const host = new HostMeasure(hostProfile({ id: 'mcp-json', tokenizer: 'cl100k_base' }));
  const changed: { id: string; before: McpTool; after: McpTool }[] = [];
  for (const source of sources) {
    // As lint loads a catalog: a repeated name (the duplicate-name fixture) is kept aside, not refused.
    const ctx = lintContext(loadCatalog(source, undefined, { repeatedNames: 'keep-first' }), host);
    for (const t of ctx.catalog.tools) {
      const { definition, applied } = fixTool(t.definition, ctx);
      if (applied.length) changed.push({ id: `${source}:${t.id}`, before: t.definition, after: definition });
    }
  }

  it('finds tools to fix, among them schema changes', () => {
    expect(changed.length).toBeGreaterThan(20);
    expect(changed.filter((c) => JSON.stringify(c.before.inputSchema) !== JSON.stringify(c.after.inputSchema)).length).toBeGreaterThan(3);
  });

  it('the fixed inputSchema accepts exactly the arguments the original accepts', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
    let compared = 0;
    let accepted = 0;
    let skipped = 0;
    for (const c of changed) {
      const before = validator(ajv, c.before.inputSchema);
      const after = validator(ajv, c.after.inputSchema);
      if (!before) {
        skipped++;
        continue;
      }
      expect(after, `${c.id}: the fixed schema compiles`).toBeDefined();
      const args = fc.oneof({ arbitrary: argsFor(c.before.inputSchema, c.before.inputSchema), weight: 4 }, fc.jsonValue({ maxDepth: 3 }));
      fc.assert(
        fc.property(args, (v) => {
          const ok = before(v);
          if (ok) accepted++;
          compared++;
          expect(after!(v), `${c.id}: ${JSON.stringify(v)}`).toBe(ok);
        }),
        { seed: 42, numRuns: 60 },
      );
    }
    expect(skipped).toBeLessThan(changed.length / 10);
    // Not decided by refusals alone: a good share of the arguments were valid calls.
    expect(accepted).toBeGreaterThan(compared / 10);
  });
});
