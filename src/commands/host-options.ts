import { Option, type Command } from 'commander';
import { ANTHROPIC_TOOL_CHOICES } from '../hosts/anthropic.ts';
import { readCustomHostFile } from '../hosts/custom.ts';
import { DEFAULT_HOST, hostSpecProblem } from '../hosts/registry.ts';
import { HOST_IDS, type HostId, type HostSpec } from '../hosts/types.ts';
import { DEFAULT_LIMITS, type InputLimits } from '../util/limits.ts';

/** Host options that do not fit together (a model for a host without models...): one line, exit 2. */
export class HostUsageError extends Error {
  override name = 'HostUsageError';
}

export interface HostCommandOptions {
  /** `all` only where the command takes it (`budget`: every built-in host side by side). */
  host?: HostId | 'all';
  hostModel?: string;
  toolChoice?: string;
  hostFile?: string;
}

/**
 * Adds --host, --host-model, --tool-choice and --host-file (src/hosts, docs/hosts.md) to a
 * command; `all`: --host also takes `all` (every built-in host, and the custom one with --host-file).
 */
export function addHostOptions(cmd: Command, { all = false } = {}): Command {
  const help = `how the tool list reaches the model (docs/hosts.md)${all ? '; all: every host side by side' : ''}; default ${DEFAULT_HOST}`;
  return cmd
    .addOption(new Option('--host <profile>', help).choices([...HOST_IDS, ...(all ? ['all'] : [])]))
    .option('--host-model <model>', 'openai-chat or anthropic: the model whose published figures apply (default gpt-4o, claude-sonnet-4-5)')
    .addOption(
      new Option('--tool-choice <choice>', 'anthropic: the request’s tool_choice (default auto)').choices([...ANTHROPIC_TOOL_CHOICES]),
    )
    .option('--host-file <file>', 'a custom host described in a JSON file (implies --host custom; docs/hosts.md#custom)');
}

/** The host a command's options name (the custom file read and validated), without the tokenizer the command adds. */
export function hostFromOptions(o: HostCommandOptions, limits: InputLimits = DEFAULT_LIMITS): Omit<HostSpec, 'tokenizer'> {
  if (o.host === 'all') {
    if (o.hostModel !== undefined || o.toolChoice !== undefined)
      throw new HostUsageError('--host all measures every host with its defaults: no --host-model or --tool-choice');
    // The built-in hosts are compared with their defaults; a custom file joins them.
    return hostFromOptions({ hostFile: o.hostFile }, limits);
  }
  const id: HostId = o.host ?? (o.hostFile !== undefined ? 'custom' : DEFAULT_HOST);
  const spec: Omit<HostSpec, 'tokenizer'> = {
    id,
    ...(o.hostModel !== undefined ? { model: o.hostModel } : {}),
    ...(o.toolChoice !== undefined ? { toolChoice: o.toolChoice } : {}),
  };
  // The file's own mistakes are InputErrors naming it; how it fits the other options, a usage error.
  const problem = hostSpecProblem(spec, o.hostFile !== undefined);
  if (problem) throw new HostUsageError(problem);
  return o.hostFile !== undefined ? { ...spec, custom: readCustomHostFile(o.hostFile, limits) } : spec;
}
