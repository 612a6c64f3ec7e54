import type { HostId } from '../../hosts/types.ts';
import { findingFor, type LintRule } from '../types.ts';

/**
 * Tool names under the MCP specification (2025-11-25, "Tool names", from SEP-986): 1 to 128
 * characters, only ASCII letters, digits, `_`, `-` and `.`. The providers' APIs are stricter
 * (no `.`): OpenAI's function names are 1–64 of `[a-zA-Z0-9_-]`, and the Anthropic Messages
 * API refuses a request whose tool name does not match `^[a-zA-Z0-9_-]{1,128}$` (its error
 * message). A host that refuses a name fails the whole request, not only that tool.
 */
const MCP_NAME = { pattern: /^[A-Za-z0-9_.-]{1,128}$/, rule: '1–128 of A–Z a–z 0–9 _ - . (MCP tool-name rules, SEP-986)' };
const HOST_NAMES: Partial<Record<HostId, { pattern: RegExp; rule: string }>> = {
  'openai-chat': { pattern: /^[A-Za-z0-9_-]{1,64}$/, rule: '1–64 of A–Z a–z 0–9 _ - (OpenAI function names)' },
  'openai-responses': { pattern: /^[A-Za-z0-9_-]{1,64}$/, rule: '1–64 of A–Z a–z 0–9 _ - (OpenAI function names)' },
  anthropic: { pattern: /^[A-Za-z0-9_-]{1,128}$/, rule: '1–128 of A–Z a–z 0–9 _ - (Anthropic tool names)' },
};

/** A name inside both rules: disallowed characters become `_`, cut to the shorter length. */
function suggestion(name: string, max: number): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, max) || 'tool';
}

/** Names outside the MCP tool-name rules, or outside what the chosen host accepts. */
export const toolName: LintRule = {
  id: 'tool-name',
  severity: 'error',
  summary: 'a name outside the MCP tool-name rules (SEP-986) or the chosen host’s',
  check({ catalog, host }) {
    const hostRule = HOST_NAMES[host.profile.id];
    return catalog.tools.flatMap((t) => {
      const broken = [MCP_NAME, hostRule].filter((r) => r && !r.pattern.test(t.name)).map((r) => r!.rule);
      if (!broken.length) return [];
      const max = hostRule?.rule.includes('1–64') ? 64 : 128;
      return [
        findingFor(this, t, {
          problem: `name ${JSON.stringify(t.name)} is outside ${broken.join(' and ')}${hostRule && broken.includes(hostRule.rule) ? `: ${host.profile.label} refuses the request` : ''}`,
          fix: `rename it, e.g. ${JSON.stringify(suggestion(t.name, max))} (callers and prompts naming it change too)`,
          recoverable: 0,
        }),
      ];
    });
  },
};
