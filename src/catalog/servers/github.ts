import type { ServerSpec } from '../spec.ts';

// Placeholder until the server's tools are authored.
export const githubServer: ServerSpec = {
  server: 'github',
  displayName: 'github',
  targetToolCount: 0,
  targetTokensPerTool: 0,
  notes: [],
  tools: [],
};
