import { findingFor, type LintRule } from '../types.ts';

/**
 * A server that lists two tools under one name: a call by that name can reach only one of
 * them, and which one depends on the client (some keep the first, some the last, some refuse
 * the list). The repeat is left out of every other rule and of the totals.
 */
export const duplicateName: LintRule = {
  id: 'duplicate-name',
  severity: 'error',
  summary: 'a tool name its server lists more than once',
  check({ catalog, host }) {
    const byId = new Map(catalog.tools.map((t) => [t.id, t]));
    return (catalog.repeated ?? []).map((r) =>
      findingFor(this, byId.get(r.id)!, {
        problem: `listed again at ${r.path} of ${r.file}${r.file === r.firstFile ? '' : ` (first in ${r.firstFile})`}: a call by this name reaches only one of them`,
        fix: 'give each tool a name of its own, or remove the repeat',
        // Removing the repeat takes its whole definition off the list.
        recoverable: host.toolTokens(r.definition),
        mechanical: false,
      }),
    );
  },
};
