import { sameElements } from './distinct-ids.ts';
import type { TurnRecord } from './turn-record.ts';

/**
 * Keeps a run's turn records small in memory. A bench holds every record of every pipeline
 * (~130,000 of them) while the studies of the results run. Records copied from a worker lane
 * arrive with a fresh copy of every string (each `long`, pipeline id, task id and tool id a new
 * string: ~1M strings in a full run) and with properties added one by one, which V8 stores out
 * of line. This rebuilds each record as one literal (every field in the object itself) whose
 * strings, tool-id lists and per-label token objects are shared with equal ones of earlier
 * records. The values are unchanged; only identity is shared, so records must not be mutated.
 */
export class RecordCompactor {
  private readonly strings = new Map<string, string>();
  private readonly lists = new Map<string, readonly string[]>();
  private readonly idCodes = new Map<string, string>();
  private readonly byLabel = new Map<string, Record<string, number>>();
  private readonly byHost = new Map<string, Readonly<Record<string, number>>>();
  /**
   * The shared copy last given for a list object, to skip joining it again when the same list
   * comes back (B1 records all 120 tools on every turn); used while the list still holds the
   * copy's elements (checked one by one), so a list changed in place is looked up again.
   */
  private readonly listCopies = new WeakMap<readonly string[], readonly string[]>();

  /**
   * compact() of each record of one finished run. Within it the same list or label object met
   * again (run-pipeline already shares them, and a worker's message keeps shared objects shared)
   * maps to its shared copy without being joined or serialised again.
   */
  compactAll(records: readonly TurnRecord[]): TurnRecord[] {
    const run: SeenInRun = { lists: new Map(), labels: new Map(), hosts: new Map() };
    return records.map((r) => this.copy(r, run));
  }

  compact(r: TurnRecord): TurnRecord {
    return this.copy(r, undefined);
  }

  private copy(r: TurnRecord, run: SeenInRun | undefined): TurnRecord {
    // Required<>: a field added to TurnRecord, optional or not, fails the type check here until it is copied.
    const out: Required<TurnRecord> = {
      pipeline: this.string(r.pipeline),
      seed: r.seed,
      taskId: this.string(r.taskId),
      kind: this.string(r.kind) as TurnRecord['kind'],
      ambiguous: r.ambiguous,
      turn: r.turn,
      turns: r.turns,
      neededTools: this.list(r.neededTools, run) as string[],
      schemaTools: this.list(r.schemaTools, run),
      neededListed: r.neededListed,
      promptTokens: r.promptTokens,
      resultTokens: r.resultTokens,
      measuredResultTokens: r.measuredResultTokens,
      codeTokens: r.codeTokens,
      roundTrips: r.roundTrips,
      toolTokens: r.toolTokens,
      toolTokensByLabel: this.labels(r.toolTokensByLabel, run),
      // B1's and B2's are equal on every turn, and equal contents share one object.
      toolTokensByHost: this.shared(
        r.toolTokensByHost,
        run?.hosts,
        this.byHost,
        () => JSON.stringify(r.toolTokensByHost),
        () => r.toolTokensByHost,
      ),
      systemTokens: r.systemTokens,
      historyTokens: r.historyTokens,
      userTokens: r.userTokens,
      stablePrefixTokens: r.stablePrefixTokens,
      sharedPrefixTokens: r.sharedPrefixTokens,
      listedTools: r.listedTools,
      fullSchemaTools: r.fullSchemaTools,
      discoveryCalls: r.discoveryCalls,
      listedForm: this.string(r.listedForm) as TurnRecord['listedForm'],
      neededSelected: r.neededSelected,
      needed: r.needed,
      neededPresent: r.neededPresent,
      recall: r.recall,
      precision: r.precision,
      missingNeeded: r.missingNeeded,
    };
    return out;
  }

  private string(s: string): string {
    const known = this.strings.get(s);
    if (known !== undefined) return known;
    this.strings.set(s, s);
    return s;
  }

  private list(ids: readonly string[], run: SeenInRun | undefined): readonly string[] {
    const copy = this.listCopies.get(ids);
    if (copy && sameElements(ids, copy)) return copy;
    const out = this.sharedList(ids, run);
    this.listCopies.set(ids, out);
    return out;
  }

  private sharedList(ids: readonly string[], run: SeenInRun | undefined): readonly string[] {
    return this.shared(
      ids,
      run?.lists,
      this.lists,
      () => this.listKey(ids),
      () => ids.map((id) => this.string(id)),
    );
  }

  /**
   * A list's key: one or two characters per id (its number among the ids met), not the ids
   * joined. The lists' keys were the compactor's largest part.
   */
  private listKey(ids: readonly string[]): string {
    let key = '';
    for (const id of ids) {
      let code = this.idCodes.get(id);
      if (code === undefined) {
        const n = this.idCodes.size;
        // Prefix-free: one character below 0x8000, else two whose first is 0x8000 or above.
        code = n < 0x8000 ? String.fromCharCode(n) : String.fromCharCode(0x8000 | (n >>> 15), n & 0x7fff);
        this.idCodes.set(id, code);
      }
      key += code;
    }
    return key;
  }

  private labels(byLabel: Record<string, number>, run: SeenInRun | undefined): Record<string, number> {
    return this.shared(
      byLabel,
      run?.labels,
      this.byLabel,
      () => JSON.stringify(byLabel),
      () => byLabel,
    );
  }

  /** The shared copy of `value`: by identity within a run, else by content (`key`), made once. */
  private shared<T extends object>(value: T, seen: Map<T, T> | undefined, byKey: Map<string, T>, key: () => string, make: () => T): T {
    const again = seen?.get(value);
    if (again) return again;
    const k = key();
    let out = byKey.get(k);
    if (!out) byKey.set(k, (out = make()));
    seen?.set(value, out);
    return out;
  }
}

/** Objects already met in one run's records (RecordCompactor.compactAll), by identity. */
interface SeenInRun {
  lists: Map<readonly string[], readonly string[]>;
  labels: Map<Record<string, number>, Record<string, number>>;
  hosts: Map<Readonly<Record<string, number>>, Readonly<Record<string, number>>>;
}
