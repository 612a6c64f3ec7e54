import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { validateTool } from '../catalog/load.ts';
import type { McpTool } from '../catalog/types.ts';
import { describeValue, InputError } from '../util/input-error.ts';
import { isObject } from '../util/json.ts';
import { redactCommand, redactText, redactUrl } from './redact.ts';
import { stderrCause } from './stderr-cause.ts';
import type { ServerSpec } from './spec.ts';

export const DEFAULT_TIMEOUT_MS = 30_000;
/** A server that pages more than this is treated as broken (a cursor loop). */
const MAX_PAGES = 1_000;
/** The SDK's stdio client refuses a message longer than its read buffer (10 MiB) with this error, then closes. */
const STDIO_BUFFER_OVERFLOW = /ReadBuffer exceeded maximum size of (\d+) bytes/;

/** The SDK's version, read from its package.json (its `exports` map hides the file from require). */
export const SDK_VERSION: string = sdkVersion();

function sdkVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/client/index.js'));
  for (; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === '@modelcontextprotocol/sdk') return pkg.version ?? 'unknown';
  }
  return 'unknown';
}

/**
 * The SDK's client side, loaded on first use: the CLI imports this module for every command,
 * and only `catalog` and `budget` with a live server need the SDK (and zod behind it).
 */
let sdk: ReturnType<typeof importSdk> | undefined;
async function importSdk() {
  const [client, sse, stdio, http, types, ProcessGroupTransport] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    // (`.then` with the name destructured: ts-unused-exports sees the use through a dynamic import.)
    import('./process-group-transport.ts').then(({ ProcessGroupTransport }) => ProcessGroupTransport),
  ]);
  return {
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    ProcessGroupTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    PaginatedResultSchema: types.PaginatedResultSchema,
  };
}
const loadSdk = () => (sdk ??= importSdk());

/** What one server said, as it said it (tools untouched: unknown fields kept). */
export interface Captured {
  spec: ServerSpec;
  /** The spec's name, else serverInfo.name, else the command's base name. */
  name: string;
  serverInfo: Record<string, unknown>;
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  instructions?: string;
  tools: McpTool[];
  pages: number;
  capturedAt: string;
}

/** A one-line error naming the server; never contains a secret value. */
export class CaptureError extends Error {
  constructor(spec: ServerSpec, what: string) {
    super(oneLine(`server ${label(spec)}: ${redactText(what, spec.secrets)}`));
    this.name = 'CaptureError';
  }
}

function label(spec: ServerSpec): string {
  return spec.name ? `"${spec.name}" (${spec.origin})` : spec.origin;
}

function oneLine(text: string, max = 400): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** The command or URL as provenance records it, secrets redacted. */
export function describeTarget(spec: ServerSpec): string {
  if (spec.transport === 'stdio') return redactCommand(spec.command ?? '', spec.args ?? [], spec.secrets);
  return redactUrl(spec.url ?? '');
}

/**
 * Forwards everything to the real transport and keeps the raw `initialize` result, which the
 * SDK client does not expose whole (protocol version, capabilities, instructions).
 */
class InitializeTap implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  initializeResult?: Record<string, unknown>;

  constructor(readonly inner: Transport) {
    inner.onmessage = (message, extra) => {
      const result = (message as { result?: unknown }).result;
      if (!this.initializeResult && isObject(result) && typeof result.protocolVersion === 'string') this.initializeResult = result;
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
  }
  start(): Promise<void> {
    return this.inner.start();
  }
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}

/** The SDK transport for a spec. A stdio child gets the SDK's safe default env plus the spec's env. */
/** What a stdio server did that explains a failed capture: its own exit, or a stdout line that is no JSON-RPC. */
interface ServerConduct {
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  notJsonRpc?: string;
}

export async function createTransport(
  spec: ServerSpec,
): Promise<{ transport: Transport; stderr: () => string; conduct: () => ServerConduct }> {
  const { getDefaultEnvironment, ProcessGroupTransport, SSEClientTransport, StreamableHTTPClientTransport } = await loadSdk();
  if (spec.transport === 'stdio') {
    const transport = new ProcessGroupTransport({
      command: spec.command!,
      args: spec.args ?? [],
      env: { ...getDefaultEnvironment(), ...(spec.env ?? {}) },
      cwd: spec.cwd,
    });
    // Its start and its end, bounded: the cause of a failed start is near one or the other.
    let head = '';
    let tail = '';
    transport.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (head.length < 4_000) head += text.slice(0, 4_000 - head.length);
      tail = (tail + text).slice(-4_000);
    });
    return {
      transport,
      stderr: () => (head.length < 4_000 ? head : `${head}\n${tail}`),
      conduct: () => ({ exit: transport.exitedOnItsOwn, notJsonRpc: transport.notJsonRpc }),
    };
  }
  let url: URL;
  try {
    url = new URL(spec.url ?? '');
  } catch {
    throw new CaptureError(spec, `"${redactUrl(spec.url ?? '')}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CaptureError(spec, `expected an http(s) URL, found ${url.protocol}`);
  const requestInit = spec.headers ? { headers: spec.headers } : undefined;
  const transport =
    spec.transport === 'sse' ? new SSEClientTransport(url, { requestInit }) : new StreamableHTTPClientTransport(url, { requestInit });
  return { transport, stderr: () => '', conduct: () => ({}) };
}

/**
 * Starts (or reaches) one server, runs `initialize` and every page of `tools/list`
 * (following `nextCursor`), closes it (a stdio child's whole process group is ended: stdin
 * closed, then SIGTERM, then SIGKILL: process-group-transport.ts), and returns what it published. Any failure, including the
 * deadline, is a CaptureError naming the server.
 */
export async function captureServer(spec: ServerSpec, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Captured> {
  if (spec.problem) throw new CaptureError(spec, spec.problem);
  const { Client, PaginatedResultSchema } = await loadSdk();
  const { transport, stderr, conduct } = await createTransport(spec);
  const tap = new InitializeTap(transport);
  const client = new Client({ name: 'tooltax', version: '0.1.0' }, { capabilities: {} });
  // What the transport reported before it closed: the SDK then fails the request with a bare "Connection closed".
  let transportError: Error | undefined;
  client.onerror = (e) => (transportError ??= e);
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let stage = 'start';
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs / 1000} s during ${stage}`)), timeoutMs);
  });
  const remaining = () => Math.max(1, timeoutMs - (Date.now() - started));
  const work = async (): Promise<Captured> => {
    stage = 'initialize';
    await client.connect(tap, { timeout: remaining() });
    const init = tap.initializeResult ?? {};
    const tools: McpTool[] = [];
    const seen = new Set<string>();
    const cursors = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      stage = `tools/list page ${pages + 1}`;
      const page = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, PaginatedResultSchema, {
        timeout: remaining(),
      });
      pages++;
      const list = (page as Record<string, unknown>).tools;
      if (!Array.isArray(list))
        throw new Error(`invalid tools/list result on page ${pages}: at $.tools: expected an array of tools, found ${describeValue(list)}`);
      list.forEach((t, i) => {
        let tool: McpTool;
        try {
          tool = validateTool(`page ${pages}`, `$.tools[${i}]`, t);
        } catch (err) {
          const what =
            err instanceof InputError
              ? `at ${err.path}: expected ${err.expected}${err.found === undefined ? '' : `, found ${err.found}`}`
              : String(err);
          throw new Error(`invalid tools/list result on page ${pages}: ${what}`);
        }
        if (seen.has(tool.name)) throw new Error(`invalid tools/list result on page ${pages}: tool name "${tool.name}" listed twice`);
        seen.add(tool.name);
        tools.push(tool);
      });
      cursor = page.nextCursor;
      if (cursor !== undefined) {
        if (cursors.has(cursor))
          throw new Error(
            `invalid tools/list result on page ${pages}: nextCursor ${JSON.stringify(cursor.slice(0, 40))} was already returned (a paging loop)`,
          );
        if (pages >= MAX_PAGES) throw new Error(`invalid tools/list result: more than ${MAX_PAGES} pages`);
        cursors.add(cursor);
      }
    } while (cursor !== undefined);
    const serverInfo = isObject(init.serverInfo) ? init.serverInfo : {};
    const name =
      spec.name ??
      (typeof serverInfo.name === 'string' && serverInfo.name ? serverInfo.name : basename(spec.command ?? spec.url ?? 'server'));
    return {
      spec,
      name,
      serverInfo,
      protocolVersion: String(init.protocolVersion ?? 'unknown'),
      capabilities: isObject(init.capabilities) ? init.capabilities : {},
      instructions: typeof init.instructions === 'string' ? init.instructions : undefined,
      tools,
      pages,
      capturedAt: new Date().toISOString(),
    };
  };
  try {
    return await Promise.race([work(), deadline]);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const cause = stderrCause(stderr());
    const overBuffer = STDIO_BUFFER_OVERFLOW.exec(transportError?.message ?? '');
    const { exit, notJsonRpc } = conduct();
    const what = /ENOENT/.test(message)
      ? `cannot start "${spec.command}" (command not found)`
      : overBuffer
        ? `a message from the server during ${stage} was over the MCP SDK's stdio limit of ${Number(overBuffer[1]) / 2 ** 20} MiB (${Number(overBuffer[1]).toLocaleString('en-US')} bytes)`
        : notJsonRpc !== undefined
          ? `not JSON-RPC: during ${stage} the server wrote ${JSON.stringify(oneLine(notJsonRpc, 80))} on stdout, where an MCP stdio server writes only JSON-RPC messages (logs go to stderr)`
          : exit
            ? `the server ${exit.signal ? `was killed by ${exit.signal}` : `exited with status ${exit.code}`} during ${stage}`
            : /Connection closed/i.test(message)
              ? `the server closed the connection during ${stage} (it exited or is not an MCP server)`
              : /^(timed out|invalid )/.test(message)
                ? message
                : `during ${stage}: ${message}`;
    const said = cause && !/ENOENT/.test(message) ? ` (${cause.kind === 'error' ? 'stderr' : 'last stderr line'}: ${cause.line})` : '';
    throw new CaptureError(spec, `${what}${said}`);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
  }
}
