import { readJsonFileIfValid, type JsonFileFormat } from '../util/json-file.ts';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { clearPart, forgetPart, type ShardSpec } from '../results/shard-part.ts';
import { InputError } from '../util/input-error.ts';
import { forgetJournal, hasJournal, JOURNAL_FILE, LiveJournal } from './journal.ts';
import type { LiveRunIdentity } from './run-identity.ts';

/**
 * A live run's output folder: its journal (src/live/journal.ts), the saved exchanges under
 * requests/, the outcomes, the tables under tables/, and live-run.json, written last, which lists
 * every file the run wrote. A user may keep files of their own there: a run removes only files a
 * run listed.
 */
export const LIVE_RUN_FILE = 'live-run.json';
export const OUTCOMES_FILE = 'live-outcomes.jsonl';

/** A file a live run writes: a saved exchange, a table, the outcomes (no folder above, no `..`). */
const LIVE_OUTPUT = /^(?:requests\/[A-Za-z0-9_.-]+\.json|tables\/[A-Za-z0-9_.-]+\.json|live-outcomes\.jsonl)$/;

export interface TakeOver {
  identity: LiveRunIdentity;
  shard: ShardSpec | null;
  secrets: readonly string[];
  /** Forget the journal there (and what its run saved) instead of resuming it. */
  fresh: boolean;
  dryRun: boolean;
}

/**
 * Takes a live output folder over for a new run; returns the journal the run appends to (none
 * for a dry run). Before anything is removed, refuses a folder holding the journal of a run with
 * other settings, and a dry run into a folder holding any (its results would replace the live
 * run's). Then removes live-run.json (a run killed from now on leaves none: the folder shows an
 * unfinished run) and the files it listed, except the exchanges the journal recorded, which the
 * replay rewrites. `fresh` first removes the journal and the exchanges it recorded, and a part
 * folder's files (`live --shard`); otherwise the folder is just no longer a finished part.
 */
export function takeOverLiveFolder(out: string, o: TakeOver): LiveJournal | undefined {
  if (o.dryRun && !o.fresh && hasJournal(out))
    throw new InputError(
      join(out, JOURNAL_FILE),
      '',
      'a folder without a live run (a dry run would replace its results)',
      "a live run's journal: choose another --out",
    );
  if (o.fresh) {
    forgetJournal(out);
    clearPart(out);
  }
  const journal = o.dryRun ? undefined : LiveJournal.open(out, o.identity, o.shard, o.secrets);
  forgetPart(out);
  const recorded = new Set(journal?.recorded.requestFiles() ?? []);
  const listed = previousRunFiles(out);
  rmSync(join(out, LIVE_RUN_FILE), { force: true });
  for (const file of listed) if (!recorded.has(file)) rmSync(join(out, ...file.split('/')), { force: true });
  return journal;
}

/** What is read back from a live-run.json (src/live/run-live.ts writes it): the files it lists, why the run stopped early (null: it ran to the end), its cost cap. */
export interface LiveRunSummary {
  files: string[];
  stopped?: string | null;
  maxUsd: number;
}

export const LIVE_RUN_JSON: JsonFileFormat<LiveRunSummary> = {
  what: 'the live-run.json of a live run',
  schema: {
    type: 'object',
    required: ['files', 'maxUsd'],
    properties: {
      files: { type: 'array', items: { type: 'string' } },
      stopped: { type: 'string', nullable: true },
      maxUsd: { type: 'number', minimum: 0 },
    },
  },
};

/** The files the folder's last live-run.json lists (those a live run writes; an unreadable one lists none). */
function previousRunFiles(out: string): string[] {
  const files = readJsonFileIfValid(join(out, LIVE_RUN_FILE), LIVE_RUN_JSON)?.files ?? [];
  return files.filter((f) => LIVE_OUTPUT.test(f));
}
