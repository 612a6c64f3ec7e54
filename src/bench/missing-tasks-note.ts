import type { Study } from '../studies/types.ts';

/** Where docs/ shows the task file format with an example for a captured catalog. */
export const TASK_FILE_DOCS = 'docs/catalogs-and-tasks.md#a-task-file-for-your-catalog';

/**
 * The one line a run on a catalog without tasks prints: which tables a task file would add
 * (Table 3 and the studies that need one, Study.needsTasks) and how to write one.
 */
export function missingTasksNote(studies: readonly Pick<Study, 'id' | 'needsTasks'>[]): string {
  const needing = studies.filter((s) => s.needsTasks).map((s) => s.id);
  return (
    `no task file: Table 3 (tokens and recall per turn for each pipeline)${needing.length ? ` and the ${needing.join(', ')} tables` : ''} need one; ` +
    `add --tasks <file.jsonl>, one task per line, e.g. {"id":"t1","turns":[{"user":"list my open pull requests","tools":["github/list_pull_requests"]}]} (${TASK_FILE_DOCS})`
  );
}
