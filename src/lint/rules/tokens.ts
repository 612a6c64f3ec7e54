import type { McpTool } from '../../catalog/types.ts';
import type { LintContext } from '../types.ts';

/** Tokens the host sends for `before` and not for `after` (0 when `after` is not smaller). */
export function tokensSaved(ctx: LintContext, before: McpTool, after: McpTool): number {
  return Math.max(0, ctx.host.toolTokens(before) - ctx.host.toolTokens(after));
}
