import { SECRET_FLAG, urlSecrets } from './redact.ts';

/**
 * What it takes to start (or reach) one MCP server, from a command line, a client config or a
 * URL. `secrets` holds every value that must never be printed or written: env values, header
 * values, values expanded from the environment, URL credentials and query values, and
 * arguments after a secret-looking flag. See redact.ts.
 */
export type TransportKind = 'stdio' | 'http' | 'sse';

export interface ServerSpec {
  /** The server's name: the config key, else null until initialize names it. */
  name: string | null;
  /** Where the spec came from, for errors: `--from-server #1`, `mcp.json: servers.github`. */
  origin: string;
  transport: TransportKind;
  command?: string;
  args?: string[];
  /** Passed to the child on top of the SDK's safe default environment (PATH, HOME, ...). */
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  secrets: string[];
  /** Set when the spec cannot be run (e.g. it needs a value only the client prompts for). */
  problem?: string;
}

/** Env/header names whose values we treat as secret: every one (a config's env is where keys live). */
export function collectSecrets(spec: Pick<ServerSpec, 'env' | 'headers' | 'args' | 'url'>): string[] {
  const out = new Set<string>();
  for (const v of Object.values(spec.env ?? {})) if (v) out.add(v);
  for (const v of Object.values(spec.headers ?? {})) {
    if (!v) continue;
    out.add(v);
    // "Bearer abc": the token alone too, in case a server echoes it without the scheme.
    const m = /^\s*\S+\s+(\S.*)$/.exec(v);
    if (m?.[1]) out.add(m[1]);
  }
  const args = spec.args ?? [];
  args.forEach((a, i) => {
    const eq = /^(-{1,2}[^=\s]+)=(.+)$/.exec(a);
    if (eq && SECRET_FLAG.test(eq[1]!)) out.add(eq[2]!);
    else if (/^-{1,2}[A-Za-z]/.test(a) && SECRET_FLAG.test(a) && i + 1 < args.length && !args[i + 1]!.startsWith('-'))
      out.add(args[i + 1]!);
  });
  if (spec.url) for (const s of urlSecrets(spec.url)) out.add(s);
  return [...out];
}
