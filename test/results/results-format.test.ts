import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { runBench } from '../../src/bench/run.ts';
import { MANIFEST_SCHEMA, TABLE_SCHEMA, TURN_RECORD_SCHEMA } from '../../src/results/format.ts';
import { PART_JSON } from '../../src/results/shard-part.ts';
import { TIMINGS_JSON } from '../../src/results/timings.ts';
import { smallTaskFile } from '../helpers/result-files.ts';
import { smallBenchOptions } from '../helpers/small-runs.ts';

/**
 * docs/results-format.md, the JSON Schemas and the TypeScript types say the same thing: every
 * field a type has, its schema has (required exactly where the type requires it), and the doc
 * lists (a row per field, `path` in its first column, under the file's heading), and no other.
 * A written run's files fit the schemas.
 */
const DOC = 'docs/results-format.md';

/** Each documented file: its heading in the doc, its schema, and the type it is read as (file, exported name). */
const FORMATS = [
  { heading: 'run.json', schema: MANIFEST_SCHEMA, type: ['src/results/format.ts', 'ManifestFile'] },
  { heading: 'tables/<id>.json', schema: TABLE_SCHEMA, type: ['src/results/format.ts', 'TableFile'] },
  { heading: 'turns/<pipeline>.seed<n>.jsonl', schema: TURN_RECORD_SCHEMA, type: ['src/measure/turn-record.ts', 'TurnRecord'] },
  { heading: 'timings.json', schema: TIMINGS_JSON.schema, type: ['src/util/step-timer.ts', 'TimingReport'] },
  { heading: 'shard.json', schema: PART_JSON.schema, type: ['src/results/shard-part.ts', 'ShardPart'] },
] as const;

/** Field paths (`a.b`, `list[].c`) with whether each may be left out. */
type Fields = Map<string, boolean>;

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  required?: readonly string[];
  items?: SchemaNode;
  anyOf?: readonly SchemaNode[];
}

function schemaFields(node: SchemaNode, prefix = '', out: Fields = new Map()): Fields {
  if (node.items && !Array.isArray(node.items)) return schemaFields(node.items, `${prefix}[]`, out);
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    out.set(path, !(node.required ?? []).includes(name));
    schemaFields(child, path, out);
  }
  return out;
}

let program: ts.Program | undefined;
function checker(): ts.TypeChecker {
  const config = ts.getParsedCommandLineOfConfigFile('tsconfig.json', {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  program ??= ts.createProgram(
    FORMATS.map((f) => f.type[0]),
    config.options,
  );
  return program.getTypeChecker();
}

function typeFields(file: string, name: string): Fields {
  const c = checker();
  const source = program!.getSourceFile(resolve(file))!;
  const symbol = c.getExportsOfModule(c.getSymbolAtLocation(source)!).find((s) => s.name === name)!;
  expect(symbol, `${file} exports ${name}`).toBeDefined();
  const out: Fields = new Map();
  walkType(c, c.getDeclaredTypeOfSymbol(symbol), '', out);
  return out;
}

/** A type's own object parts: without null and undefined; the element of an array; the members of a union of objects. */
function walkType(c: ts.TypeChecker, type: ts.Type, prefix: string, out: Fields): void {
  const parts = (type.isUnion() ? type.types : [type]).filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
  const objects = parts.filter((t) => t.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection));
  if (objects.length === 0) return;
  if (objects.length === 1 && c.isArrayType(objects[0]!)) {
    walkType(c, c.getTypeArguments(objects[0] as ts.TypeReference)[0]!, `${prefix}[]`, out);
    return;
  }
  if (objects.some((t) => c.isTupleType(t))) return;
  const names = new Set(objects.flatMap((t) => c.getPropertiesOfType(t).map((p) => p.name)));
  for (const name of names) {
    const path = prefix ? `${prefix}.${name}` : name;
    const props = objects.map((t) => c.getPropertyOfType(t, name));
    // Optional when a member of the union lacks it or declares it optional.
    out.set(
      path,
      props.some((p) => !p || (p.flags & ts.SymbolFlags.Optional) !== 0),
    );
    for (const p of props) if (p) walkType(c, c.getTypeOfSymbol(p), path, out);
  }
}

/** The doc's fields per file: each table row's `path` and whether it is always there (`yes`/`no`), under `### \`<heading>\``. */
function docFields(): Map<string, [string, boolean][]> {
  const out = new Map<string, [string, boolean][]>();
  let current: [string, boolean][] | undefined;
  for (const line of readFileSync(DOC, 'utf8').split('\n')) {
    const heading = /^#{2,3} `([^`]+)`/.exec(line);
    if (heading) out.set(heading[1]!, (current = []));
    else if (/^#{1,3} /.test(line)) current = undefined;
    const row = /^\| `([^`]+)`\s*\| (yes|no)\s*\|/.exec(line);
    if (row && current) current.push([row[1]!, row[2] === 'no']);
  }
  return out;
}

const sorted = (fields: Fields) => [...fields].sort(([a], [b]) => a.localeCompare(b));

describe('results format: types, schemas and docs/results-format.md', () => {
  for (const f of FORMATS) {
    it(`${f.heading}: the schema has the fields of ${f.type[1]}, required where the type requires them`, () => {
      const fromType = typeFields(f.type[0], f.type[1]);
      expect(fromType.size).toBeGreaterThan(3);
      expect(sorted(schemaFields(f.schema as SchemaNode))).toEqual(sorted(fromType));
    });

    it(`${f.heading}: the doc lists every field of the schema, once, and no other`, () => {
      const documented = docFields().get(f.heading);
      expect(documented, `${DOC} has a section "### \`${f.heading}\`"`).toBeDefined();
      expect(new Set(documented!.map(([path]) => path)).size, 'no field twice').toBe(documented!.length);
      expect([...documented!].sort(([a], [b]) => a.localeCompare(b))).toEqual(sorted(schemaFields(f.schema as SchemaNode)));
    });
  }
});

describe('results format: what a run writes fits the schemas', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'tooltax-results-format-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const ajv = new Ajv({ strict: true, allowUnionTypes: true });
  const fits = (schema: object, data: unknown, what: string) => {
    const validate = ajv.compile(schema);
    expect(validate(data) ? 'fits' : `${what}: ${ajv.errorsText(validate.errors)}`).toBe('fits');
  };
  const json = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
  const lines = (file: string): unknown[] =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));

  it('run.json, tables, turn records, events, timings.json and shard.json', async () => {
    const options = smallBenchOptions(smallTaskFile(join(tmp, 'tasks.jsonl'), 1), {
      pipelines: ['b1-full-schema', 'ta-k5'],
      studies: ['projection'],
      lanes: 1,
    });
    const out = join(tmp, 'run');
    // Reports into the temporary folder too: the default folder is the repository's reports/.
    await runBench({ ...options, out, reports: join(tmp, 'reports') });
    fits(MANIFEST_SCHEMA, json(join(out, 'run.json')), 'run.json');
    fits(TIMINGS_JSON.schema, json(join(out, 'timings.json')), 'timings.json');
    const tables = readdirSync(join(out, 'tables'));
    expect(tables.length).toBeGreaterThan(3);
    for (const t of tables) fits(TABLE_SCHEMA, json(join(out, 'tables', t)), t);
    const turns = readdirSync(join(out, 'turns'));
    expect(turns.length).toBe(2);
    for (const t of turns) for (const r of lines(join(out, 'turns', t))) fits(TURN_RECORD_SCHEMA, r, t);
    // Tool Attention logs its routing on every turn.
    const events = readdirSync(join(out, 'events'));
    expect(events).toContain('ta-k5.seed42.jsonl');
    for (const e of events) for (const ev of lines(join(out, 'events', e))) fits(EVENT_FIELDS, ev, e);

    const part = join(tmp, 'part');
    await runBench({ ...options, shard: { index: 1, count: 1 }, out: part });
    fits(PART_JSON.schema, json(join(part, 'shard.json')), 'shard.json');
  });
});

/** What every event line has (docs/results-format.md: the rest depends on `type`). */
const EVENT_FIELDS = {
  type: 'object',
  required: ['taskId', 'turn', 'type'],
  properties: { taskId: { type: 'string' }, turn: { type: 'integer' }, type: { type: 'string' } },
};
