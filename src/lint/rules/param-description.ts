import { isPlainObject } from '../../pipelines/adol/json.ts';
import { eachSubschema } from '../schema.ts';
import { findingFor, type LintRule } from '../types.ts';

/** Parameters (properties at any depth of inputSchema) with neither a description nor a $ref to one. */
function undescribed(inputSchema: unknown): string[] {
  const out: string[] = [];
  eachSubschema(inputSchema, (s, path) => {
    if (!isPlainObject(s.properties)) return;
    for (const [name, p] of Object.entries(s.properties)) {
      if (!isPlainObject(p) || '$ref' in p) continue;
      if (typeof p.description !== 'string' || !p.description.trim()) out.push(path === '$' ? name : `${path.slice(2)}.properties.${name}`);
    }
  });
  return out;
}

/** A parameter the model must fill without being told what it is. */
export const paramDescription: LintRule = {
  id: 'param-description',
  severity: 'warning',
  summary: 'input parameters without a description',
  check({ catalog }) {
    return catalog.tools.flatMap((t) => {
      const names = undescribed(t.definition.inputSchema);
      if (!names.length) return [];
      const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
      return [
        findingFor(this, t, {
          problem: `${names.length} parameter(s) without a description: ${shown}`,
          fix: 'describe each in a few words (format, units, an example value); the name alone leaves the model guessing',
          recoverable: 0,
        }),
      ];
    });
  },
};
