import type { ServerSpec, ToolSpec } from '../catalog/spec.ts';
import { toolId, type Precondition } from '../catalog/types.ts';
import { Rng } from '../util/rng.ts';
import { ENTITIES, isEntitySlot } from '../catalog/entities.ts';
import { AMBIGUOUS_SHARE, CALIBRATION_TASKS, DOUBLE_TOOL_SHARE, EXTRA_WRITE_SCOPE_CHANCE, TASK_MIX, TOOL_FREE_SHARE } from './mix.ts';
import type { Task, TaskKind, TaskTurn } from './types.ts';

interface ToolRef {
  server: ServerSpec;
  tool: ToolSpec;
  id: string;
}

/** Things people say between tool calls in a long session. */
const TOOL_FREE_MESSAGES = [
  'thanks, that helps',
  'ok hold on, let me check with the team before we go on',
  'can you recap what we have so far in two lines?',
  'great. what would you do next?',
  'hmm, that is not quite what I expected — any idea why?',
  'perfect, keep that in mind for later',
  'sorry, got pulled into a meeting. where were we?',
  'makes sense. nothing to change there for now',
];

const CONNECTORS = ['', '', 'ok, now ', 'next, ', 'also, ', 'cool. ', 'right — ', 'after that, '];

/**
 * Generates labelled tasks from the authored intents of the server specs. Entity values are
 * drawn once per task and reused across its turns. Tools that may only run after a lookup
 * get that lookup in an earlier turn, so every ground truth respects the preconditions.
 */
export class TaskGenerator {
  private readonly tools: ToolRef[];
  /** Every auth scope some tool requires, sorted (the same for every task: built once). */
  private readonly allScopes: readonly string[];

  constructor(private readonly specs: readonly ServerSpec[]) {
    this.tools = specs.flatMap((server) => server.tools.map((tool) => ({ server, tool, id: toolId(server.server, tool.name) })));
    this.allScopes = [...new Set(this.tools.flatMap((t) => authScopes(t.tool.preconditions)))].sort();
  }

  /** The evaluated task set; another `stream` (e.g. `history`) gives an independent sample. */
  generate(seed: number, stream = 'tasks'): Task[] {
    const tasks: Task[] = [];
    const rng = new Rng(seed, stream);
    let n = 0;
    for (const kind of ['single', 'multi', 'long'] as const) {
      // Single-step tasks cycle through every eligible tool so each is exercised.
      const singles = rng.shuffle(this.tools.filter((t) => !afterPrefixes(t.tool)));
      for (let i = 0; i < TASK_MIX[kind].count; i++) {
        const id = `t${String(++n).padStart(4, '0')}`;
        tasks.push(this.task(id, kind, rng.fork(id), singles[i % singles.length]!));
      }
    }
    return tasks;
  }

  /** Held-out tasks for threshold calibration, from a separate stream; none repeats an evaluated message. */
  generateCalibration(seed: number, evaluated: readonly Task[]): Task[] {
    const seen = new Set(evaluated.flatMap((t) => t.turns.map((u) => u.user)));
    const rng = new Rng(seed, 'calibration-tasks');
    const out: Task[] = [];
    const pool = this.tools.filter((t) => !afterPrefixes(t.tool));
    for (let attempt = 0; out.length < CALIBRATION_TASKS && attempt < CALIBRATION_TASKS * 20; attempt++) {
      const id = `cal${String(out.length + 1).padStart(4, '0')}`;
      const task = this.task(id, 'single', rng.fork(`${id}:${attempt}`), rng.pick(pool));
      if (task.turns.some((t) => seen.has(t.user))) continue;
      task.turns.forEach((t) => seen.add(t.user));
      out.push(task);
    }
    return out;
  }

  private task(id: string, kind: TaskKind, rng: Rng, singleTool: ToolRef): Task {
    const bindings = new Map<string, string>();
    const fill = (template: string) =>
      template.replace(/\{([a-z_]+)\}/g, (_, slot: string) => {
        if (!isEntitySlot(slot)) throw new Error(`unknown slot {${slot}}`);
        if (!bindings.has(slot)) bindings.set(slot, rng.pick(ENTITIES[slot]));
        return bindings.get(slot)!;
      });
    let ambiguous = false;
    const say = (ref: ToolRef, allowVague: boolean) => {
      const vague = ref.tool.ambiguousIntents ?? [];
      if (allowVague && vague.length > 0 && rng.chance(AMBIGUOUS_SHARE)) {
        ambiguous = true;
        return fill(rng.pick(vague));
      }
      return fill(rng.pick(ref.tool.intents));
    };

    const turns: TaskTurn[] = [];
    if (kind === 'single') {
      turns.push({ user: say(singleTool, true), tools: [singleTool.id] });
    } else {
      const [minTurns, maxTurns] = TASK_MIX[kind].turns;
      const [minServers, maxServers] = TASK_MIX[kind].servers;
      const servers = rng.shuffle(this.specs).slice(0, rng.int(minServers, maxServers));
      const target = rng.int(minTurns, maxTurns);
      const done: ToolRef[] = [];
      while (turns.length < target) {
        if (kind === 'long' && turns.length > 0 && rng.chance(TOOL_FREE_SHARE)) {
          turns.push({ user: rng.pick(TOOL_FREE_MESSAGES), tools: [] });
          continue;
        }
        const server = rng.pick(servers);
        let ref = this.ref(server, rng.pick(server.tools));
        const prefixes = afterPrefixes(ref.tool);
        if (prefixes && !done.some((d) => prefixes.some((p) => d.tool.name.startsWith(p)))) {
          // Look something up first, in its own turn, as a person would.
          const lookups = server.tools.filter((t) => !afterPrefixes(t) && prefixes.some((p) => t.name.startsWith(p)));
          if (lookups.length === 0 || turns.length + 1 >= target) {
            ref = this.ref(server, rng.pick(server.tools.filter((t) => !afterPrefixes(t))));
          } else {
            const lookup = this.ref(server, rng.pick(lookups));
            turns.push({ user: connect(rng, turns.length, say(lookup, kind === 'multi')), tools: [lookup.id] });
            done.push(lookup);
          }
        }
        const refs = [ref];
        if (rng.chance(DOUBLE_TOOL_SHARE)) {
          const otherServer = rng.pick(servers);
          const second = this.ref(otherServer, rng.pick(otherServer.tools.filter((t) => !afterPrefixes(t))));
          if (second.id !== ref.id) refs.push(second);
        }
        const text = refs.map((r) => say(r, kind === 'multi')).join(rng.pick([', and then ', '. Then ', ' — and after that ']));
        turns.push({ user: connect(rng, turns.length, text), tools: refs.map((r) => r.id) });
        done.push(...refs);
      }
    }

    const groundTruth = [...new Set(turns.flatMap((t) => t.tools))].sort();
    const servers = [...new Set(groundTruth.map((id) => id.split('/')[0]!))].sort();
    return {
      id,
      kind,
      turns,
      groundTruthTools: groundTruth,
      initialState: { authScopes: this.scopes(rng, groundTruth) },
      flags: { ambiguous },
      servers,
    };
  }

  /**
   * A deployment typically holds read access everywhere and write access where it was
   * granted: every scope the ground truth needs, plus now and then an unneeded write scope.
   */
  private scopes(rng: Rng, groundTruth: string[]): string[] {
    const needed = new Set(groundTruth.flatMap((id) => authScopes(this.byId(id).tool.preconditions)));
    for (const scope of this.allScopes) {
      const isRead = !/:write$/.test(scope);
      if (isRead || rng.chance(EXTRA_WRITE_SCOPE_CHANCE)) needed.add(scope);
    }
    return [...needed].sort();
  }

  private ref(server: ServerSpec, tool: ToolSpec): ToolRef {
    return { server, tool, id: toolId(server.server, tool.name) };
  }

  private byId(id: string): ToolRef {
    const ref = this.tools.find((t) => t.id === id);
    if (!ref) throw new Error(`unknown tool ${id}`);
    return ref;
  }
}

function connect(rng: Rng, turnIndex: number, text: string): string {
  const lead = turnIndex === 0 ? '' : rng.pick(CONNECTORS);
  return lead ? lead + text.charAt(0).toLowerCase() + text.slice(1) : text;
}

function afterPrefixes(tool: ToolSpec): string[] | undefined {
  const pc = tool.preconditions.find((p): p is Extract<Precondition, { kind: 'after_tool_output' }> => p.kind === 'after_tool_output');
  return pc?.prefixes;
}

function authScopes(pcs: readonly Precondition[]): string[] {
  return pcs.flatMap((p) => (p.kind === 'requires_auth' ? [p.scope] : []));
}
