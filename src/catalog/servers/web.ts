import type { ServerSpec } from '../spec.ts';

// Placeholder until the server's tools are authored.
export const webServer: ServerSpec = {
  server: 'web',
  displayName: 'web',
  targetToolCount: 0,
  targetTokensPerTool: 0,
  notes: [],
  tools: [],
};
