import type { ServerSpec } from '../spec.ts';

// Placeholder until the server's tools are authored.
export const databaseServer: ServerSpec = {
  server: 'database',
  displayName: 'database',
  targetToolCount: 0,
  targetTokensPerTool: 0,
  notes: [],
  tools: [],
};
