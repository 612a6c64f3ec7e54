import { findingFor, type LintRule } from '../types.ts';

/** A tool without a description: the model picks it by its name alone. */
export const missingDescription: LintRule = {
  id: 'missing-description',
  severity: 'error',
  summary: 'a tool without a description, or with an empty one',
  check({ catalog }) {
    return catalog.tools
      .filter((t) => typeof t.definition.description !== 'string' || !t.definition.description.trim())
      .map((t) =>
        findingFor(this, t, {
          problem: t.definition.description === undefined ? 'no description' : 'an empty description',
          fix: 'add one sentence saying what the tool does and when to use it (the model chooses tools by it)',
          recoverable: 0,
        }),
      );
  },
};
