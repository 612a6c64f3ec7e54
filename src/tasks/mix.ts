/**
 * The documented task mix (README "Tasks"). Single-step tasks are one turn; multi-step tasks
 * span 2–6 turns over two or three servers; long-horizon tasks span 15–40 turns over two to
 * four servers with some turns that need no tool.
 */
export const TASK_MIX = {
  single: { count: 225, turns: [1, 1] as const, servers: [1, 1] as const },
  multi: { count: 200, turns: [2, 6] as const, servers: [2, 3] as const },
  long: { count: 75, turns: [15, 40] as const, servers: [2, 4] as const },
} as const;

/** Held-out tasks for θ calibration: generated from another random stream, never evaluated. */
export const CALIBRATION_TASKS = 150;

/** Share of single-step and multi-step turns that use a deliberately vague request. */
export const AMBIGUOUS_SHARE = 0.08;
/** Share of multi-step and long-horizon turns that ask for two tools at once. */
export const DOUBLE_TOOL_SHARE = 0.2;
/** Share of long-horizon turns that need no tool (thanks, recap, clarification). */
export const TOOL_FREE_SHARE = 0.15;
/** Chance that the user also holds a write scope no ground-truth tool needs. */
export const EXTRA_WRITE_SCOPE_CHANCE = 0.3;
