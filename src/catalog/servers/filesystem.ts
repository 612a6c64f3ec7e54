import type { ServerSpec } from '../spec.ts';

// Placeholder until the server's tools are authored.
export const filesystemServer: ServerSpec = {
  server: 'filesystem',
  displayName: 'filesystem',
  targetToolCount: 0,
  targetTokensPerTool: 0,
  notes: [],
  tools: [],
};
