import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { McpTool } from '../catalog/types.ts';
import { toStableJson, writeFileAtomic } from '../util/files.ts';
import { captureServer, CaptureError, describeTarget, SDK_VERSION, type Captured } from './capture.ts';
import { MIN_SERVER_DATA_LENGTH, REDACTED, redactJson, redactText } from './redact.ts';
import type { ServerSpec } from './spec.ts';

/** Where `catalog --from-*` writes dumps unless `--out` says otherwise. */
export const DEFAULT_CAPTURE_DIR = join('catalogs', 'captured');

/**
 * Where a dump came from. Everything but `capturedAt` is a function of the server and the
 * spec; token counts read `tools` only, so the capture time never changes a measurement.
 * Env variables and headers are recorded by name; their values are never written.
 */
export interface Provenance {
  serverInfo: Record<string, unknown>;
  protocolVersion: string;
  transport: ServerSpec['transport'];
  /** The command line (stdio) or URL (http/sse), secrets redacted. */
  target: string;
  origin: string;
  env?: string[];
  headers?: string[];
  capabilities: Record<string, unknown>;
  instructions?: string;
  pages: number;
  client: string;
  /** How many secret values were found in the server's own data (tools, instructions) and replaced. */
  redactedInServerData: number;
  capturedAt: string;
}

/** A dump the catalog loader reads (`{ server, tools }`), with provenance beside the tools. */
export interface CaptureDump {
  server: string;
  provenance: Provenance;
  tools: McpTool[];
}

function toDump(c: Captured): CaptureDump {
  // Secret values in what the server sent (a server that echoes its env into a description or
  // its name) are replaced too: in the measured data only long ones (MIN_SERVER_DATA_LENGTH),
  // in provenance and the server's name (which names the file) every one.
  const counter = { n: 0 };
  const serverData = { minLength: MIN_SERVER_DATA_LENGTH, counter };
  const tools = redactJson(c.tools, c.spec.secrets, serverData);
  const instructions = c.instructions === undefined ? undefined : redactJson(c.instructions, c.spec.secrets, serverData);
  const serverInfo = redactJson(c.serverInfo, c.spec.secrets, { counter });
  const server = redactText(c.name, c.spec.secrets, { counter });
  const provenance: Provenance = {
    serverInfo,
    protocolVersion: redactText(c.protocolVersion, c.spec.secrets, { counter }),
    transport: c.spec.transport,
    target: describeTarget(c.spec),
    origin: c.spec.origin,
    ...(c.spec.env && Object.keys(c.spec.env).length ? { env: Object.keys(c.spec.env).sort() } : {}),
    ...(c.spec.headers && Object.keys(c.spec.headers).length ? { headers: Object.keys(c.spec.headers).sort() } : {}),
    capabilities: redactJson(c.capabilities, c.spec.secrets, { counter }),
    ...(instructions === undefined ? {} : { instructions }),
    pages: c.pages,
    client: `tooltax with @modelcontextprotocol/sdk ${SDK_VERSION}`,
    redactedInServerData: counter.n,
    capturedAt: c.capturedAt,
  };
  return { server, provenance, tools };
}

/** A file name for a server name: letters, digits, `.`, `_`, `-`. */
function dumpFileName(server: string): string {
  const base = server.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'server';
  return `${base}.json`;
}

export interface CaptureOutcome {
  written: { server: string; file: string; tools: number; replaced: boolean }[];
  failures: string[];
}

/**
 * Captures each spec in turn and writes `<out>/<server>.json`. A failing server is reported
 * (one line, through `warn`) and the others still run. An existing file is replaced only with
 * `force`; otherwise that server fails with a message saying so. Two servers of one run with
 * the same name fail the second.
 */
export async function captureToDir(
  specs: readonly ServerSpec[],
  out: string,
  options: { timeoutMs: number; force: boolean; log: (line: string) => void; warn: (line: string) => void },
): Promise<CaptureOutcome> {
  const outcome: CaptureOutcome = { written: [], failures: [] };
  const taken = new Map<string, string>();
  for (const spec of specs) {
    try {
      const captured = await captureServer(spec, options.timeoutMs);
      const dump = toDump(captured);
      const file = join(out, dumpFileName(dump.server));
      if (taken.has(file))
        throw new CaptureError(spec, `writes ${file}, which ${taken.get(file)} of this run already wrote; give the servers distinct names`);
      const replaced = existsSync(file);
      if (replaced && !options.force)
        throw new CaptureError(spec, `${file} exists; pass --force to replace it or --out <dir> to write elsewhere`);
      writeFileAtomic(file, toStableJson(dump));
      taken.set(file, `server "${dump.server}"`);
      outcome.written.push({ server: dump.server, file, tools: dump.tools.length, replaced });
      const info = dump.provenance.serverInfo;
      options.log(
        redactText(
          `captured ${dump.server}: ${dump.tools.length} tools in ${captured.pages} page(s) from ${String(info.name ?? '?')} ${String(info.version ?? '')} (protocol ${dump.provenance.protocolVersion}) → ${file}${replaced ? ' (replaced)' : ''}`,
          spec.secrets,
        ),
      );
      if (dump.provenance.redactedInServerData)
        options.warn(
          `warning: server "${dump.server}" sent ${dump.provenance.redactedInServerData} secret value(s) in its own data; replaced by ${REDACTED} in the dump`,
        );
    } catch (err) {
      const message =
        err instanceof CaptureError ? err.message : new CaptureError(spec, err instanceof Error ? err.message : String(err)).message;
      outcome.failures.push(message);
      options.warn(`error: ${message}`);
    }
  }
  return outcome;
}

/**
 * Exit status of a capture run: 0 every server captured, 1 some failed (the others' dumps are
 * written), 2 none captured (or bad input, reported before any server starts).
 */
export function captureExitCode(outcome: CaptureOutcome): 0 | 1 | 2 {
  if (outcome.written.length === 0) return 2;
  return outcome.failures.length ? 1 : 0;
}
