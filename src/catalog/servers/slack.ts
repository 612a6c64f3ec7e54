import type { ServerSpec } from '../spec.ts';

// Placeholder until the server's tools are authored.
export const slackServer: ServerSpec = {
  server: 'slack',
  displayName: 'slack',
  targetToolCount: 0,
  targetTokensPerTool: 0,
  notes: [],
  tools: [],
};
