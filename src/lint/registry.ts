import { droppedFields } from './rules/dropped-fields.ts';
import { duplicateName } from './rules/duplicate-name.ts';
import { enumBloat } from './rules/enum-bloat.ts';
import { longDescription } from './rules/long-description.ts';
import { missingDescription } from './rules/missing-description.ts';
import { nearDuplicate } from './rules/near-duplicate.ts';
import { paramDescription } from './rules/param-description.ts';
import { repeatedSubschema } from './rules/repeated-subschema.ts';
import { toolName } from './rules/tool-name.ts';
import type { LintRule } from './types.ts';

/**
 * Every lint rule, in report order. A new rule is one file in rules/ and one line here, plus
 * its two fixtures in test/fixtures/lint/<id>/ (one that triggers it, one that does not; the
 * test refuses a rule without them).
 */
export const LINT_RULES: readonly LintRule[] = [
  duplicateName,
  missingDescription,
  longDescription,
  paramDescription,
  repeatedSubschema,
  enumBloat,
  toolName,
  droppedFields,
  nearDuplicate,
];
