import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { CaptureDump } from '../../src/mcp/dump.ts';

const ROOT = process.cwd();

/** The entry file of an installed MCP server package, from its package.json `bin`. */
export function serverEntry(pkg: 'server-everything' | 'server-filesystem' | 'server-memory'): string {
  const dir = join(ROOT, 'node_modules', '@modelcontextprotocol', pkg);
  const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof meta.bin === 'string' ? meta.bin : Object.values(meta.bin)[0]!;
  return join(dir, bin);
}

/** Tool names as the SDK's own client lists them (the independent reference of the capture tests). */
export async function sdkToolNames(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ names: string[]; serverName: string }> {
  const client = new Client({ name: 'test', version: '0' });
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  await client.connect(transport);
  try {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor);
    return { names, serverName: client.getServerVersion()!.name };
  } finally {
    await client.close();
  }
}

let everythingStdio: ReturnType<typeof sdkToolNames> | undefined;
/** server-everything's tools over stdio, asked once and shared by the tests that compare against it. */
export function everythingStdioNames(): ReturnType<typeof sdkToolNames> {
  everythingStdio ??= sdkToolNames(process.execPath, [serverEntry('server-everything'), 'stdio']);
  return everythingStdio;
}

export function readDump(file: string): CaptureDump {
  return JSON.parse(readFileSync(file, 'utf8')) as CaptureDump;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `tooltax <args>` (src/cli.ts through tsx) in a child process, asynchronously. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    // tsx as a loader in this one process, as `npm run bench` does (tsx's CLI would start a second node).
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts a child and resolves once a line of its output matches `ready`; rejects if it exits first. */
export function startUntil(command: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    const onData = (d: Buffer) => {
      seen += d.toString();
      if (ready.test(seen)) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${command} exited with ${code} before it was ready: ${seen.slice(-300)}`)));
  });
}

/** Ends a child we started and waits for it. */
export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
