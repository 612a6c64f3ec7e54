import type { ServerSpec } from '../spec.ts';

// Placeholder until the server's tools are authored.
export const jiraServer: ServerSpec = {
  server: 'jira',
  displayName: 'jira',
  targetToolCount: 0,
  targetTokensPerTool: 0,
  notes: [],
  tools: [],
};
