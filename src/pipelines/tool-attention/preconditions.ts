import type { CatalogTool, Precondition } from '../../catalog/types.ts';
import type { AgentState } from '../types.ts';

/**
 * The state-aware gate g(t_i, state_t) (paper §4.2 eq. 6, §5.4): deterministic predicates over
 * authoritative agent state, never over free text.
 * - requires_auth: the state holds the scope;
 * - after_tool_output: the agent already holds output of a tool whose name starts with one of
 *   the prefixes (`state.toolOutputs` holds tool names in call order).
 */
export function preconditionHolds(p: Precondition, state: AgentState): boolean {
  switch (p.kind) {
    case 'requires_auth':
      return state.authScopes.has(p.scope);
    case 'after_tool_output':
      return state.toolOutputs.some((name) => p.prefixes.some((prefix) => name.startsWith(prefix)));
  }
}

/** The tool's preconditions that the state does not satisfy (empty: the tool may be offered). */
export function unmetPreconditions(tool: CatalogTool, state: AgentState): Precondition[] {
  return tool.preconditions.filter((p) => !preconditionHolds(p, state));
}

/** `requires_auth github:write`, `after_tool_output search_|list_`: for events. */
function describePrecondition(p: Precondition): string {
  return p.kind === 'requires_auth' ? `requires_auth ${p.scope}` : `after_tool_output ${p.prefixes.join('|')}`;
}

/** A gate over a catalog for one state: tool id → unmet preconditions, described. */
export type StateGate = (toolId: string) => string[];

export function stateGate(tools: ReadonlyMap<string, CatalogTool>, state: AgentState): StateGate {
  return (toolId) => {
    const tool = tools.get(toolId);
    if (!tool) throw new Error(`precondition gate: unknown tool ${toolId}`);
    return unmetPreconditions(tool, state).map(describePrecondition);
  };
}
