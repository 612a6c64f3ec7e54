// Captures measured tool results: `npx tsx scripts/capture-tool-results.ts` runs the MCP
// reference filesystem server (a devDependency) over stdio on a small scratch project, calls
// every tool of catalogs/real/filesystem.json once with the arguments below, and writes what
// each call returned (the text a host puts in the context) to
// catalogs/real/results/filesystem.json. The bench reads that file (src/catalog/tool-results.ts):
// it never starts a server. The scratch folder's path is written as /workspace; timestamps in
// get_file_info's result are the capture's own, so a new capture differs in them.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { definitionHash, type MeasuredResultsFile } from '../src/catalog/tool-results.ts';
import type { McpTool } from '../src/catalog/types.ts';
import { toStableJson } from '../src/util/files.ts';

const root = resolve(import.meta.dirname, '..');
const SHOWN_ROOT = '/workspace';

/** The scratch project: a few files of the kinds the real query set asks about. */
const FILES: Record<string, string> = {
  'README.md': '# billing-service\n\nHandles invoices and refunds.\n\n## Setup\n\nRun `npm ci` then `npm start`.\n',
  'src/index.ts':
    "import { createServer } from 'node:http';\n\nexport const port = Number(process.env.PORT ?? 8080);\ncreateServer((_req, res) => res.end('ok')).listen(port);\n",
  'src/invoice.ts':
    'export interface Invoice {\n  id: string;\n  amountCents: number;\n  paid: boolean;\n}\n\nexport function total(items: Invoice[]): number {\n  return items.reduce((s, i) => s + i.amountCents, 0);\n}\n',
  'notes/todo.txt': 'rotate API keys\nmigrate invoices table\nadd refund webhook\n',
  'data/report.csv': 'month,invoices,refunds\n2025-04,1203,14\n2025-05,1288,9\n2025-06,1342,21\n',
};
/** A 1×1 PNG for read_media_file. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The arguments of each tool's one call; the calls run in the dump's order (later calls see what earlier ones wrote). */
function argumentsFor(dir: string): Record<string, Record<string, unknown>> {
  const p = (rel: string) => join(dir, rel);
  return {
    list_allowed_directories: {},
    list_directory: { path: dir },
    list_directory_with_sizes: { path: p('src') },
    directory_tree: { path: p('src') },
    read_file: { path: p('README.md') },
    read_text_file: { path: p('src/invoice.ts') },
    read_media_file: { path: p('assets/logo.png') },
    read_multiple_files: { paths: [p('README.md'), p('notes/todo.txt')] },
    search_files: { path: dir, pattern: '**/*.ts' },
    get_file_info: { path: p('data/report.csv') },
    write_file: { path: p('notes/release.md'), content: '# Release 1.4\n\n- refund webhook\n' },
    edit_file: { path: p('notes/todo.txt'), edits: [{ oldText: 'rotate API keys', newText: 'rotate API keys (done)' }] },
    create_directory: { path: p('archive/2025') },
    move_file: { source: p('notes/release.md'), destination: p('archive/2025/release.md') },
  };
}

/** What a host puts in the context for a tools/call result: its content blocks (an image block as a marker: image tokens are not text). */
function resultText(result: Record<string, unknown>): string {
  const blocks = Array.isArray(result.content) ? (result.content as { type: string; text?: string; mimeType?: string }[]) : [];
  return blocks.map((b) => (b.type === 'text' ? (b.text ?? '') : `[${b.type} ${b.mimeType ?? ''}]`.replace(' ]', ']'))).join('\n');
}

const dump = JSON.parse(readFileSync(join(root, 'catalogs/real/filesystem.json'), 'utf8')) as { tools: McpTool[] };
const dir = mkdtempSync(join(tmpdir(), 'tooltax-fs-'));
try {
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets/logo.png'), PNG);
  const client = new Client({ name: 'tooltax-capture', version: '1' });
  const server = join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, dir], stderr: 'ignore' }));
  const version = client.getServerVersion();
  const args = argumentsFor(dir);
  const results: MeasuredResultsFile['results'] = [];
  for (const tool of dump.tools) {
    const a = args[tool.name];
    if (!a) throw new Error(`capture: no arguments for ${tool.name}`);
    const result = await client.callTool({ name: tool.name, arguments: a });
    const shown = (s: string) => s.split(dir).join(SHOWN_ROOT);
    results.push({
      tool: tool.name,
      definitionSha256: definitionHash({ definition: tool }),
      arguments: JSON.parse(shown(JSON.stringify(a))) as Record<string, unknown>,
      text: shown(resultText(result)),
    });
  }
  await client.close();
  const file: MeasuredResultsFile = {
    server: 'filesystem',
    capture: `tools/call results of ${version?.name ?? '?'} ${version?.version ?? '?'} (@modelcontextprotocol/server-filesystem from npm) over stdio on a scratch project (scripts/capture-tool-results.ts), its path shown as ${SHOWN_ROOT}`,
    results,
  };
  mkdirSync(join(root, 'catalogs/real/results'), { recursive: true });
  writeFileSync(join(root, 'catalogs/real/results/filesystem.json'), toStableJson(file));
  console.log(`captured ${results.length} results into catalogs/real/results/filesystem.json`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
