import type { Command } from 'commander';
import { nearestNames, suggestionText } from '../util/nearest.ts';

/**
 * The options an unknown option may have meant, among every option of the command and of the
 * program: first those holding every word of it (`--max-tokens` → `--max-tool-tokens`), then the
 * nearest by edits (`--max-tools`); at most three.
 */
function optionSuggestions(flag: string, options: readonly string[], max = 3): string[] {
  const words = flag.replace(/^-+/, '').toLowerCase().split('-').filter(Boolean);
  const holding = options.filter((o) => {
    const own = o.replace(/^-+/, '').toLowerCase().split('-');
    return o !== flag && words.length > 1 && words.every((w) => own.includes(w));
  });
  const near = nearestNames(flag, options, max).filter((o) => !holding.includes(o));
  return [...holding, ...near].slice(0, max);
}

/**
 * Replaces commander's suggestion for an unknown option (the nearest by edits alone, and on a
 * second line) in `program` and every command under it, so the message is one line that names
 * optionSuggestions. Call once the program's commands are all defined.
 */
export function suggestAmongAllOptions(program: Command): void {
  const visit = (cmd: Command) => {
    // commander's hook for an unknown option (a method of every command, not in its typings).
    (cmd as unknown as { unknownOption: (flag: string) => void }).unknownOption = (flag: string) => {
      const longs: string[] = [];
      for (let c: Command | null = cmd; c; c = c.parent)
        for (const o of c.options) if (o.long && !o.hidden && !longs.includes(o.long)) longs.push(o.long);
      const hint = flag.startsWith('--') ? suggestionText(optionSuggestions(flag, longs)) : '';
      cmd.error(`error: unknown option '${flag}'${hint}`, { code: 'commander.unknownOption' });
    };
    cmd.commands.forEach(visit);
  };
  visit(program);
}

/**
 * A command that takes its files through `--catalog` (budget, lint, catalog): a file given
 * without it (`budget mytools.json`) is the commonest first mistake, and commander's "too many
 * arguments" does not say what to type instead. The line that does, as a usage error.
 */
export function hintCatalogForPositional(cmd: Command): Command {
  return cmd.allowExcessArguments(true).hook('preAction', (self) => {
    if (self.args.length === 0) return;
    const given = self.args.map((a) => (/^[\w./@:+-]+$/.test(a) ? a : JSON.stringify(a))).join(',');
    self.error(`error: ${self.name()} takes no positional arguments; did you mean --catalog ${given}?`, {
      code: 'commander.excessArguments',
    });
  });
}

/**
 * The default command (bench) takes no positional arguments, so a word it is given is a
 * mistyped command (`tooltax budgett`): say so, with the nearest command names, instead of
 * commander's "too many arguments for 'bench'".
 */
export function hintCommandForPositional(cmd: Command): Command {
  return cmd.allowExcessArguments(true).hook('preAction', (self) => {
    const word = self.args[0];
    if (word === undefined) return;
    const names = (self.parent?.commands ?? []).map((c) => c.name());
    self.error(`error: unknown command '${word}'${suggestionText(nearestNames(word, names, 2))}; the commands are ${names.join(', ')}`, {
      code: 'commander.unknownCommand',
    });
  });
}
