/**
 * CI smoke test of the live-agent mode, end to end through the CLI: starts the scripted
 * OpenAI-compatible TEST STAND-IN (test/live/scripted-llm-server.ts, 127.0.0.1, a crude keyword
 * agent, not a model), runs `live` against it for every main pipeline on a few tasks, the code
 * pipelines against their stand-in agent (test/live/code-pipelines-stand-in.ts: the file shell
 * and the pipelines' own search tools over chat completions; tool use examples and programmatic
 * tool calling in Anthropic's shapes), then the host tool search pipelines against the tool
 * search stand-in (test/live/tool-search-stand-in.ts) for each provider, and checks that each run exits 0, writes the live tables and one saved
 * exchange per request, and that the key appears in no saved file.
 * Usage: npx tsx scripts/live-smoke.ts [out dir]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keywordAgent, startScriptedLlmServer, type Script } from '../test/live/scripted-llm-server.ts';
import { toolSearchAgent } from '../test/live/tool-search-stand-in.ts';
import { anthropicCodeAgent, codePipelineAgent } from '../test/live/code-pipelines-stand-in.ts';

const root = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'tooltax-live-smoke-'));
const KEY = 'sk-standin-smoke-not-a-secret';

const RUNS: { name: string; provider: 'openai' | 'anthropic'; script: Script; pipelines?: string }[] = [
  { name: 'main', provider: 'openai', script: keywordAgent() },
  {
    name: 'code-openai',
    provider: 'openai',
    script: codePipelineAgent(),
    pipelines: 'code-mode-files,code-mode-files-search,search-execute',
  },
  { name: 'code-anthropic', provider: 'anthropic', script: anthropicCodeAgent(), pipelines: 'tool-examples,programmatic-calls' },
  {
    name: 'tool-search-anthropic',
    provider: 'anthropic',
    script: toolSearchAgent(),
    pipelines: 'anthropic-tool-search-bm25,anthropic-tool-search-regex,client-search',
  },
  { name: 'tool-search-openai', provider: 'openai', script: toolSearchAgent(), pipelines: 'openai-tool-search,client-search' },
];

const problems: string[] = [];
let requests = 0;
for (const run of RUNS) {
  const out = join(root, run.name);
  const server = await startScriptedLlmServer(run.script);
  const args = ['tsx', 'src/cli.ts', 'live', '--provider', run.provider, '--model', 'stand-in', '--price', '0,0', '--base-url', server.url];
  args.push('--tasks', '3', '--max-usd', '1', '--backoff-ms', '10', '--timeout', '30', '--out', out);
  if (run.pipelines) args.push('--pipelines', run.pipelines);
  const variable = run.provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
  const code = await new Promise<number>((resolve) => {
    const child = spawn('npx', args, { stdio: 'inherit', env: { ...process.env, [variable]: KEY } });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  await server.close();
  requests += server.requests.length;
  if (code !== 0) problems.push(`${run.name}: live exited ${code}`);
  for (const f of ['live-outcomes.jsonl', 'tables/live-vs-projected.json', 'tables/live-tokens.json', 'tables/live-cost-estimate.json'])
    if (!existsSync(join(out, f))) problems.push(`${run.name}: missing ${f}`);
  const saved = existsSync(join(out, 'requests')) ? readdirSync(join(out, 'requests')) : [];
  if (saved.length !== server.requests.length)
    problems.push(`${run.name}: ${saved.length} saved exchanges for ${server.requests.length} requests`);
  if (saved.some((f) => readFileSync(join(out, 'requests', f), 'utf8').includes(KEY)))
    problems.push(`${run.name}: the API key appears in a saved exchange`);
}
if (problems.length) {
  console.error(`live smoke: FAILED: ${problems.join('; ')}`);
  process.exit(1);
}
console.log(`live smoke: ok (${RUNS.length} runs, ${requests} requests to the stand-in, results in ${root})`);
