/**
 * A task is a conversation: each turn has the user's message and the ground-truth tools
 * that turn needs (tool ids `server/name`, in call order). Stored one task per line in a
 * JSON Lines file (format in README.md "Task file format").
 */
export type TaskKind = 'single' | 'multi' | 'long';

export interface TaskTurn {
  user: string;
  /** Tool ids this turn needs, in call order; empty for a turn that needs no tool. */
  tools: string[];
  /**
   * Tools that would also serve the turn (a consolidated `issue_write` for `create_issue`), as
   * ids; absent when none. Recall counts only `tools`; the "served" rate also accepts these.
   */
  acceptable?: string[];
}

export interface Task {
  id: string;
  kind: TaskKind;
  turns: TaskTurn[];
  /** Union of every turn's tools, sorted. */
  groundTruthTools: string[];
  /** What the agent holds before the first turn. */
  initialState: { authScopes: string[] };
  flags: { ambiguous: boolean };
  /** Servers the ground-truth tools belong to, sorted. */
  servers: string[];
}
