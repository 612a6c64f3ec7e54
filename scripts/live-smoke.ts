/**
 * CI smoke test of the live-agent mode, end to end through the CLI: starts the scripted
 * OpenAI-compatible TEST STAND-IN (test/live/scripted-llm-server.ts, 127.0.0.1, a crude keyword
 * agent, not a model), runs `live` against it for every main pipeline on a few tasks, and checks
 * that it exits 0, writes the live tables and one saved exchange per request, and that the key
 * appears in no saved file. Usage: npx tsx scripts/live-smoke.ts [out dir]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keywordAgent, startScriptedLlmServer } from '../test/live/scripted-llm-server.ts';

const out = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'tooltax-live-smoke-'));
const KEY = 'sk-standin-smoke-not-a-secret';
const server = await startScriptedLlmServer(keywordAgent());
const args = ['tsx', 'src/cli.ts', 'live', '--provider', 'openai', '--model', 'stand-in', '--price', '0,0', '--base-url', server.url];
args.push('--tasks', '3', '--max-usd', '1', '--backoff-ms', '10', '--timeout', '30', '--out', out);
const code = await new Promise<number>((resolve) => {
  const child = spawn('npx', args, { stdio: 'inherit', env: { ...process.env, OPENAI_API_KEY: KEY } });
  child.on('exit', (c) => resolve(c ?? 1));
});
await server.close();

const problems: string[] = [];
if (code !== 0) problems.push(`live exited ${code}`);
for (const f of ['live-outcomes.jsonl', 'tables/live-vs-projected.json', 'tables/live-tokens.json', 'tables/live-cost-estimate.json'])
  if (!existsSync(join(out, f))) problems.push(`missing ${f}`);
const saved = existsSync(join(out, 'requests')) ? readdirSync(join(out, 'requests')) : [];
if (saved.length !== server.requests.length) problems.push(`${saved.length} saved exchanges for ${server.requests.length} requests`);
if (saved.some((f) => readFileSync(join(out, 'requests', f), 'utf8').includes(KEY)))
  problems.push('the API key appears in a saved exchange');
if (problems.length) {
  console.error(`live smoke: FAILED: ${problems.join('; ')}`);
  process.exit(1);
}
console.log(`live smoke: ok (${server.requests.length} requests to the stand-in, results in ${out})`);
