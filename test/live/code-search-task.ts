import type { Task } from '../../src/tasks/types.ts';

/** A one-turn task over test/fixtures/small-catalog that needs its code search tool: what the live tests send the stand-in endpoint. */
export function codeSearchTask(id: string): Task {
  return {
    id,
    kind: 'single',
    turns: [{ user: 'search the code for login', tools: ['code/search_code'] }],
    groundTruthTools: ['code/search_code'],
    initialState: { authScopes: ['code:read'] },
    flags: { ambiguous: false },
    servers: ['code'],
  };
}
