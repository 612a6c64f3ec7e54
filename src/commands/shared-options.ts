import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULT_TIMEOUT_MS } from '../mcp/capture.ts';
import { DEFAULT_TOKENIZER, TOKENIZERS } from '../tokens/counter.ts';
import { splitIds } from '../util/ids.ts';
import { DEFAULT_SEED } from '../util/rng.ts';
import { collect, parseTimeout } from './capture.ts';
import { idParser } from './id-options.ts';

/** Options several commands take, each defined once so their help and parsing agree. */

function parseSeed(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('expected an integer');
  return n;
}

export function parseSeeds(value: string): number[] {
  const seeds = splitIds(value).map(parseSeed);
  const twice = seeds.find((s, i) => seeds.indexOf(s) !== i);
  if (twice !== undefined) throw new InvalidArgumentError(`seed ${twice} given twice; expected each at most once`);
  return seeds;
}

const parseTokenizer = idParser({ noun: 'tokenizer', ids: TOKENIZERS });

export const seedOption = () => new Option('--seed <n>', 'seed of every random choice').default(DEFAULT_SEED).argParser(parseSeed);

export const tokenizerOption = () =>
  new Option('--tokenizer <name>', `tokenizer (${TOKENIZERS.join(', ')})`).default(DEFAULT_TOKENIZER).argParser(parseTokenizer);

/** Live MCP servers: `catalog` writes their dumps, `budget` and `lint` measure them. */
export const liveOptions = (cmd: Command) =>
  cmd
    .option(
      '--from-server <command>',
      'start a stdio MCP server from this command line and capture its tools/list (repeatable; leading NAME=value words are its env)',
      collect,
    )
    .option(
      '--from-config <file>',
      'capture every server of an MCP client config: mcpServers (Claude Desktop, Claude Code, Cursor) or servers (VS Code mcp.json) (repeatable)',
      collect,
    )
    .option('--from-url <url>', 'capture a Streamable HTTP MCP server (repeatable)', collect)
    .option(
      '--timeout <seconds>',
      'per-server deadline for start, initialize and every tools/list page',
      parseTimeout,
      DEFAULT_TIMEOUT_MS / 1000,
    );
