import type { Catalog } from '../catalog/types.ts';
import { describeValue, InputError, jsonParseReason } from '../util/input-error.ts';
import { isObject } from '../util/json.ts';
import { checkKnownKeys } from '../util/known-keys.ts';
import { didYouMean, nearestNames, suggestionText } from '../util/nearest.ts';
import { checkJsonLimits, DEFAULT_LIMITS, limitExceeded, readInputFile, type InputLimits } from '../util/limits.ts';
import type { Task, TaskKind, TaskTurn } from './types.ts';

const KINDS: readonly TaskKind[] = ['single', 'multi', 'long'];

/** The keys a task file may hold (`servers` is what tasksToJsonl writes: recomputed on load); any other is refused. */
const TASK_KEYS = ['id', 'kind', 'turns', 'groundTruthTools', 'initialState', 'flags', 'servers'];
const TURN_KEYS = ['user', 'tools', 'acceptable'];
const INITIAL_STATE_KEYS = ['authScopes'];
const FLAG_KEYS = ['ambiguous'];
/** A JSON array where JSON Lines were expected: the commonest mistake, named as such. */
const ARRAY_FILE = 'a JSON array: write one task per line (JSON Lines)';

/** One task per line, as JSON; the file ends with a newline. */
export function tasksToJsonl(tasks: readonly Task[]): string {
  return tasks.map((t) => JSON.stringify(t)).join('\n') + '\n';
}

/**
 * Reads and validates a task file (JSON Lines) against a catalog. Tools may be named by
 * `server/name` or, where the name is unique in the catalog, by name alone; they come back
 * as ids. Optional fields get defaults: `kind` from the number of turns, `initialState` with
 * every auth scope the catalog's preconditions mention, `flags.ambiguous` false.
 */
export function loadTasks(file: string, catalog: Catalog, limits: InputLimits = DEFAULT_LIMITS): Task[] {
  const text = readInputFile(file, limits);
  const resolve = toolResolver(catalog);
  const serverOf = new Map(catalog.tools.map((t) => [t.id, t.server]));
  const allScopes = [
    ...new Set(catalog.tools.flatMap((t) => t.preconditions.flatMap((p) => (p.kind === 'requires_auth' ? [p.scope] : [])))),
  ].sort();
  const tasks: Task[] = [];
  const ids = new Set<string>();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const at = (path: string) => `line ${i + 1} ${path}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      if (tasks.length === 0 && line.trimStart().startsWith('['))
        throw new InputError(file, at('$'), 'one JSON object per line', ARRAY_FILE);
      throw new InputError(file, at('$'), 'one JSON object per line', jsonParseReason(err));
    }
    checkJsonLimits(file, at('$'), raw, limits);
    if (Array.isArray(raw) && tasks.length === 0) throw new InputError(file, at('$'), 'a task object', ARRAY_FILE);
    if (!isObject(raw)) throw new InputError(file, at('$'), 'a task object', describeValue(raw));
    checkKnownKeys(file, at('$'), raw, TASK_KEYS, 'a task');
    if (typeof raw.id !== 'string' || !raw.id) throw new InputError(file, at('$.id'), 'a non-empty string', describeValue(raw.id));
    if (ids.has(raw.id)) throw new InputError(file, at('$.id'), 'a unique task id', `"${raw.id}" again`);
    ids.add(raw.id);
    if (!Array.isArray(raw.turns) || raw.turns.length === 0)
      throw new InputError(file, at('$.turns'), 'a non-empty array of turns', describeValue(raw.turns));
    if (raw.turns.length > limits.maxTurns)
      throw limitExceeded(file, at('$.turns'), 'maxTurns', limits, `${raw.turns.length.toLocaleString('en-US')} turns`);
    const turns: TaskTurn[] = raw.turns.map((turn, j) => {
      const p = `$.turns[${j}]`;
      if (!isObject(turn)) throw new InputError(file, at(p), 'an object with "user" and "tools"', describeValue(turn));
      checkKnownKeys(file, at(p), turn, TURN_KEYS, 'a turn');
      if (typeof turn.user !== 'string' || !turn.user.trim())
        throw new InputError(file, at(`${p}.user`), "the user's message (non-empty string)", describeValue(turn.user));
      const tools = turn.tools;
      if (!Array.isArray(tools))
        throw new InputError(file, at(`${p}.tools`), 'an array of tool names ([] for a turn that needs no tool)', describeValue(tools));
      const resolved: TaskTurn = { user: turn.user, tools: tools.map((name, k) => resolve(name, file, at(`${p}.tools[${k}]`))) };
      if (turn.acceptable !== undefined) {
        if (!Array.isArray(turn.acceptable))
          throw new InputError(file, at(`${p}.acceptable`), 'an array of tool names', describeValue(turn.acceptable));
        resolved.acceptable = turn.acceptable.map((name, k) => resolve(name, file, at(`${p}.acceptable[${k}]`)));
      }
      return resolved;
    });
    const kind = raw.kind ?? (turns.length === 1 ? 'single' : turns.length < 15 ? 'multi' : 'long');
    if (!KINDS.includes(kind as TaskKind)) throw new InputError(file, at('$.kind'), `one of ${KINDS.join(', ')}`, describeValue(kind));
    const groundTruth = [...new Set(turns.flatMap((t) => t.tools))].sort();
    if (raw.groundTruthTools !== undefined) {
      if (!Array.isArray(raw.groundTruthTools))
        throw new InputError(file, at('$.groundTruthTools'), 'an array of tool names', describeValue(raw.groundTruthTools));
      const given = raw.groundTruthTools.map((name, k) => resolve(name, file, at(`$.groundTruthTools[${k}]`)));
      const missing = groundTruth.filter((id) => !given.includes(id));
      if (missing.length)
        throw new InputError(file, at('$.groundTruthTools'), 'every tool the turns need', `${missing.join(', ')} missing`);
    }
    if (raw.initialState !== undefined && !isObject(raw.initialState))
      throw new InputError(file, at('$.initialState'), 'an object with "authScopes"', describeValue(raw.initialState));
    if (raw.flags !== undefined && !isObject(raw.flags))
      throw new InputError(file, at('$.flags'), 'an object with "ambiguous"', describeValue(raw.flags));
    if (raw.initialState) checkKnownKeys(file, at('$.initialState'), raw.initialState, INITIAL_STATE_KEYS, 'initialState');
    if (raw.flags) checkKnownKeys(file, at('$.flags'), raw.flags, FLAG_KEYS, 'flags');
    const scopes = isObject(raw.initialState) ? raw.initialState.authScopes : undefined;
    if (scopes !== undefined && !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string'))) {
      throw new InputError(file, at('$.initialState.authScopes'), 'an array of scope strings', describeValue(scopes));
    }
    const ambiguous = isObject(raw.flags) ? raw.flags.ambiguous : undefined;
    if (ambiguous !== undefined && typeof ambiguous !== 'boolean')
      throw new InputError(file, at('$.flags.ambiguous'), 'true or false', describeValue(ambiguous));
    tasks.push({
      id: raw.id,
      kind: kind as TaskKind,
      turns,
      groundTruthTools: groundTruth,
      initialState: { authScopes: (scopes as string[] | undefined) ?? allScopes },
      flags: { ambiguous: ambiguous ?? false },
      servers: [...new Set(groundTruth.map((id) => serverOf.get(id)!))].sort(),
    });
  });
  if (tasks.length === 0) throw new InputError(file, '', 'at least one task', 'an empty file');
  return tasks;
}

function toolResolver(catalog: Catalog) {
  const byId = new Set(catalog.tools.map((t) => t.id));
  const byName = new Map<string, string[]>();
  const byServer = new Map<string, string[]>();
  for (const t of catalog.tools) {
    byName.set(t.name, [...(byName.get(t.name) ?? []), t.id]);
    byServer.set(t.server, [...(byServer.get(t.server) ?? []), t.id]);
  }
  /** The nearest ids: among its server's tools when the name starts with a server, else among every id and name. */
  const nearest = (name: string): string => {
    const server = [...byServer.keys()].find((s) => name.startsWith(`${s}/`));
    if (server) return didYouMean(name, byServer.get(server)!, 3);
    const names = nearestNames(name, byName.keys(), 3);
    // A near name stands for the ids of every server that has it.
    return names.length ? suggestionText(names.flatMap((n) => byName.get(n)!).slice(0, 3)) : didYouMean(name, byId, 3);
  };
  return (name: unknown, file: string, path: string): string => {
    if (typeof name !== 'string') throw new InputError(file, path, 'a tool name (string)', describeValue(name));
    if (byId.has(name)) return name;
    const ids = byName.get(name) ?? [];
    if (ids.length === 1) return ids[0]!;
    if (ids.length > 1) throw new InputError(file, path, `server/name, since "${name}" exists on several servers`, ids.join(' and '));
    throw new InputError(file, path, `a tool of catalog "${catalog.name}" (name or server/name)`, `"${name}"${nearest(name)}`);
  };
}
