import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import type { JsonSchema } from '../../src/catalog/types.ts';
import { withExamples } from '../../src/pipelines/tool-examples/pipeline.ts';
import { exampleArguments } from '../../src/prompt/example-values.ts';
import { patternExample } from '../../src/prompt/pattern-example.ts';
import { SUITES } from '../../src/table/suites.ts';

/**
 * Every generated tool use example (`input_examples`) and every modelled call's arguments are
 * valid against their own tool's input schema, in every suite, checked by ajv on its own (not
 * by the generator's checks). Formats are not checked (ajv-formats is not a dependency).
 */
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, logger: false });

/** A schema written in draft 4 (`exclusiveMinimum: true` beside `minimum`) read as draft 6 and later write it, so ajv compiles it. */
function draft4Read(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(draft4Read);
  if (!schema || typeof schema !== 'object') return schema;
  const s: Record<string, unknown> = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, draft4Read(v)]));
  for (const [ex, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof s[ex] !== 'boolean') continue;
    if (s[ex] === true) s[ex] = s[bound];
    else delete s[ex];
    if (s[ex] !== undefined) delete s[bound];
  }
  return s;
}

function validator(schema: JsonSchema): ValidateFunction {
  try {
    return ajv.compile(schema);
  } catch {
    return ajv.compile(draft4Read(schema) as JsonSchema);
  }
}

describe('tool use examples are valid against their schemas', () => {
  for (const suite of SUITES) {
    it(`in the ${suite.id} suite: every input_examples entry and every modelled call's arguments`, () => {
      const catalog = loadCatalog(suite.data ? suite.data.catalog(process.cwd()) : 'catalogs/synthetic-120');
      const invalid: string[] = [];
      let examples = 0;
      for (const t of catalog.tools) {
        const validate = validator(t.definition.inputSchema);
        const all = [...(withExamples(t.definition).input_examples as unknown[]), exampleArguments(t.definition.inputSchema)];
        for (const [i, e] of all.entries()) {
          examples++;
          if (!validate(e))
            invalid.push(`${t.id} #${i}: ${(validate.errors ?? []).map((x) => `${x.instancePath || '(root)'} ${x.message}`).join('; ')}`);
        }
      }
      expect(examples).toBeGreaterThan(catalog.tools.length);
      expect(invalid).toEqual([]);
    });
  }
});

describe('strings spelled from a pattern', () => {
  it('match their pattern, and longer spellings stay within it', () => {
    const patterns = [
      '^[A-Z][A-Z0-9_]+-\\d+(?:-\\d+)*$',
      '^(\\d+[wdhm]\\s*)+$',
      '^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$',
      '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|0{8})$',
      '^[^\\s/]+$',
      '^AS\\d+$',
    ];
    for (const p of patterns)
      for (const extra of [0, 3]) {
        const s = patternExample(p, extra);
        expect(s, p).not.toBeNull();
        expect(new RegExp(p, 'u').test(s!), `${p} → ${s}`).toBe(true);
      }
    expect(patternExample('^\\d{3}$')).toBe('000');
    // A lookahead the spelling cannot honour gives no example rather than a wrong one.
    expect(patternExample('^(?=.*[A-Z])[a-z]+$')).toBeNull();
  });
});
