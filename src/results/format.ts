import { Ajv, type ValidateFunction } from 'ajv';
import type { Table } from '../table/table.ts';
import { describeValue, InputError } from '../util/input-error.ts';
import type { RunManifest } from './manifest.ts';
import { schemaError } from '../util/json-file.ts';

/**
 * The format of the results files `report` reads (run.json and tables/<id>.json). Each file
 * carries it as `formatVersion`, and each is validated on read against the JSON Schema below,
 * so a file of another tooltax, a hand-edited one or a truncated one is refused in one line
 * naming the file and the JSON path, never half-rendered. Raise the version with any change a
 * reader of the previous format would misread (a renamed or re-typed field).
 */
export const RESULTS_FORMAT_VERSION = 1;

const string = { type: 'string' } as const;
const number = { type: 'number' } as const;
const integer = { type: 'integer' } as const;
const strings = { type: 'array', items: string } as const;
const version = { const: RESULTS_FORMAT_VERSION } as const;

/** The schemas below are checked against the TypeScript types they are read as, field by field, and documented field by field in docs/results-format.md (test/results/results-format.test.ts holds the three together). */
export const TABLE_SCHEMA = {
  type: 'object',
  required: ['formatVersion', 'id', 'title', 'columns', 'rows'],
  properties: {
    formatVersion: version,
    id: string,
    title: string,
    columns: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'header', 'kind'],
        properties: {
          key: string,
          header: string,
          kind: { enum: ['label', 'measured', 'projected', 'published', 'difference', 'parameter'] },
          digits: integer,
          publishedFor: string,
        },
        additionalProperties: false,
      },
    },
    // A cell is text, a number, or null (NaN and empty cells are written as null or left out).
    rows: { type: 'array', items: { type: 'object', additionalProperties: { type: ['string', 'number', 'null'] } } },
    notes: strings,
  },
  additionalProperties: false,
} as const;

const nullableNumber = { type: ['number', 'null'] } as const;
const thresholdPoint = {
  type: 'object',
  required: ['theta', 'tp', 'fp', 'fn', 'tn', 'precision', 'recall', 'f1'],
  properties: { theta: number, tp: integer, fp: integer, fn: integer, tn: integer, precision: number, recall: number, f1: number },
} as const;

/** What a pipeline recorded about how it ran (./pipeline-settings.ts); `details` is free-form. */
const SETTINGS_SCHEMA = {
  type: 'object',
  required: ['details'],
  properties: {
    fitted: { type: 'array', items: { type: 'object', required: ['part', 'on'], properties: { part: string, on: string } } },
    retrieval: {
      type: 'object',
      required: ['encoder', 'k', 'toolText', 'query'],
      properties: {
        encoder: string,
        encoderDescription: string,
        index: string,
        indexNote: string,
        k: integer,
        theta: number,
        thetaSource: string,
        toolText: string,
        query: string,
        retriever: string,
        retrieverDescription: string,
        scoreScale: string,
      },
    },
    gates: {
      type: 'object',
      required: ['hallucination', 'preconditions'],
      properties: { hallucination: { type: 'boolean' }, preconditions: { type: 'boolean' } },
    },
    discovery: {
      type: 'object',
      required: ['mode', 'cli', 'rule'],
      properties: { mode: { enum: ['policy', 'oracle'] }, cli: string, shell: { enum: ['cli', 'files'] }, rule: string },
    },
    toolSearch: {
      type: 'object',
      required: ['execution', 'references'],
      properties: {
        execution: { enum: ['server', 'client'] },
        provider: { enum: ['anthropic', 'openai'] },
        variant: { enum: ['bm25', 'regex'] },
        references: integer,
      },
    },
    codeExecution: {
      type: 'object',
      required: ['programmatic'],
      properties: { programmatic: { type: 'boolean' } },
    },
    calibration: {
      type: 'object',
      required: ['encoder', 'encoderDescription', 'toolText', 'queries', 'pairs', 'positives', 'step', 'chosen', 'points', 'published'],
      properties: {
        encoder: string,
        encoderDescription: string,
        toolText: string,
        queries: integer,
        pairs: integer,
        positives: integer,
        step: number,
        chosen: thresholdPoint,
        points: { type: 'array', items: thresholdPoint },
        policy: {
          type: 'object',
          required: ['kind'],
          properties: { kind: { enum: ['f1', 'coverage'] }, target: number },
        },
        coverage: { type: 'array', items: number },
        scoreScale: string,
        published: {
          type: 'object',
          required: ['theta', 'minilmRange'],
          properties: { theta: number, minilmRange: { type: 'array', items: number, minItems: 2, maxItems: 2 } },
        },
      },
    },
    adol: {
      type: 'object',
      properties: {
        externalTemplates: { type: 'object', required: ['templates', 'tokens'], properties: { templates: integer, tokens: integer } },
        tagFallbackTurns: integer,
      },
    },
    details: { type: 'object' },
  },
} as const;

export const MANIFEST_SCHEMA = {
  type: 'object',
  required: [
    'formatVersion',
    'tool',
    'version',
    'startedAt',
    'finishedAt',
    'seconds',
    'catalog',
    'tasks',
    'tokenizer',
    'encoder',
    'seeds',
    'quick',
    'pipelines',
    'measurementParams',
    'tableOrder',
  ],
  properties: {
    formatVersion: version,
    tool: { const: 'tooltax' },
    version: string,
    commit: string,
    startedAt: string,
    finishedAt: string,
    seconds: number,
    catalog: {
      type: 'object',
      required: ['name', 'source', 'tools', 'servers'],
      properties: { name: string, source: string, tools: integer, servers: strings },
    },
    tasks: {
      type: 'object',
      required: ['source', 'perSeed'],
      properties: {
        source: string,
        perSeed: {
          type: 'array',
          items: { type: 'object', required: ['seed', 'tasks'], properties: { seed: integer, tasks: integer } },
        },
      },
    },
    tokenizer: string,
    encoder: { type: 'object', required: ['name', 'description'], properties: { name: string, description: string } },
    host: { type: 'object', required: ['id', 'label'], properties: { id: string, label: string } },
    seeds: { type: 'array', items: integer },
    quick: { type: 'boolean' },
    partial: { type: 'object', required: ['options'], properties: { options: strings, studies: strings } },
    pipelines: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'label', 'code', 'group', 'baseline', 'settings'],
        properties: {
          id: string,
          label: string,
          code: string,
          group: { enum: ['main', 'ablation', 'adol'] },
          baseline: { type: 'boolean' },
          ablationOf: string,
          settings: SETTINGS_SCHEMA,
        },
      },
    },
    measurementParams: { type: 'object' },
    tableOrder: strings,
    files: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'sha256'],
        properties: { path: string, sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
      },
    },
  },
} as const;

const tokensByKey = { type: 'object', additionalProperties: integer } as const;

/**
 * One line of turns/<pipeline>.seed<n>.jsonl: a TurnRecord (src/measure/turn-record.ts). No
 * reader of a results folder reads them back (reports read the tables); the schema says what a
 * consumer may rely on, and the bench's tests check written records against it.
 */
export const TURN_RECORD_SCHEMA = {
  type: 'object',
  required: [
    'pipeline',
    'seed',
    'taskId',
    'kind',
    'ambiguous',
    'turn',
    'turns',
    'promptTokens',
    'toolTokens',
    'toolTokensByLabel',
    'toolTokensByHost',
    'systemTokens',
    'historyTokens',
    'userTokens',
    'stablePrefixTokens',
    'sharedPrefixTokens',
    'listedTools',
    'fullSchemaTools',
    'discoveryCalls',
    'listedForm',
    'neededSelected',
    'needed',
    'neededPresent',
    'neededListed',
    'recall',
    'precision',
    'missingNeeded',
    'resultTokens',
    'measuredResultTokens',
    'codeTokens',
    'roundTrips',
    'neededTools',
    'schemaTools',
  ],
  properties: {
    pipeline: string,
    seed: integer,
    taskId: string,
    kind: { enum: ['single', 'multi', 'long'] },
    ambiguous: { type: 'boolean' },
    turn: integer,
    turns: integer,
    promptTokens: integer,
    toolTokens: integer,
    toolTokensByLabel: tokensByKey,
    toolTokensByHost: tokensByKey,
    systemTokens: integer,
    historyTokens: integer,
    userTokens: integer,
    stablePrefixTokens: integer,
    sharedPrefixTokens: integer,
    listedTools: integer,
    fullSchemaTools: integer,
    discoveryCalls: integer,
    listedForm: { enum: ['summary', 'cli-line'] },
    neededSelected: integer,
    needed: integer,
    neededPresent: integer,
    neededListed: integer,
    recall: nullableNumber,
    precision: nullableNumber,
    missingNeeded: { type: 'boolean' },
    resultTokens: integer,
    measuredResultTokens: integer,
    codeTokens: integer,
    roundTrips: integer,
    neededTools: strings,
    schemaTools: strings,
  },
  additionalProperties: false,
} as const;

/** A table file as written: the table with the format version first. */
export type TableFile = { formatVersion: typeof RESULTS_FORMAT_VERSION } & Table;
/** run.json as written. */
export type ManifestFile = { formatVersion: typeof RESULTS_FORMAT_VERSION } & RunManifest;

let validators: { table: ValidateFunction<TableFile>; manifest: ValidateFunction<ManifestFile> } | undefined;

/** Compiled on first use: `bench` writes results without reading any. */
function compiled() {
  if (!validators) {
    const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
    validators = { table: ajv.compile<TableFile>(TABLE_SCHEMA), manifest: ajv.compile<ManifestFile>(MANIFEST_SCHEMA) };
  }
  return validators;
}

/** A table read from `file`, checked: its format version, then the schema. */
export function checkedTable(data: unknown, file: string): Table {
  const v = compiled().table;
  checkVersion(data, file, 'a table JSON written by the bench');
  if (!v(data)) throw schemaError(file, v.errors, 'a table JSON written by the bench');
  const { formatVersion: _, ...table } = data;
  return table;
}

/** run.json read from `file`, checked: its format version, then the schema. */
export function checkedManifest(data: unknown, file: string): RunManifest {
  const v = compiled().manifest;
  checkVersion(data, file, 'the run manifest written by the bench');
  if (!v(data)) throw schemaError(file, v.errors, 'the run manifest written by the bench');
  const { formatVersion: _, ...manifest } = data;
  return manifest;
}

/** Another version is named as such (one line), before any field is checked against this version's schema. */
function checkVersion(data: unknown, file: string, what: string): void {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new InputError(file, '$', what, describeValue(data));
  const found = (data as { formatVersion?: unknown }).formatVersion;
  if (found === RESULTS_FORMAT_VERSION) return;
  throw new InputError(
    file,
    '$.formatVersion',
    `results format ${RESULTS_FORMAT_VERSION} (what this tooltax reads)`,
    found === undefined
      ? 'none: written by an older tooltax; run the bench again with this one'
      : `format ${typeof found === 'number' ? found : describeValue(found)}: written by another tooltax; run the bench again with this one, or report with the one that wrote it`,
  );
}
