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
  private readonly byLabel = new Map<string, Record<string, number>>();
  private seen: { lists: Map<readonly string[], readonly string[]>; labels: Map<object, Record<string, number>> } | undefined;

  /**
   * compact() of each record of one finished run. Within it the same list or label object met
   * again (run-pipeline already shares them, and a worker's message keeps shared objects shared)
   * maps to its shared copy without being joined or serialised again.
   */
  compactAll(records: readonly TurnRecord[]): TurnRecord[] {
    this.seen = { lists: new Map(), labels: new Map() };
    try {
      return records.map((r) => this.compact(r));
    } finally {
      this.seen = undefined;
    }
  }

  compact(r: TurnRecord): TurnRecord {
    // Required<>: a field added to TurnRecord, optional or not, fails the type check here until it is copied.
    const out: Required<TurnRecord> = {
      pipeline: this.string(r.pipeline),
      seed: r.seed,
      taskId: this.string(r.taskId),
      kind: this.string(r.kind) as TurnRecord['kind'],
      ambiguous: r.ambiguous,
      turn: r.turn,
      turns: r.turns,
      neededTools: this.list(r.neededTools) as string[],
      schemaTools: this.list(r.schemaTools),
      neededListed: r.neededListed,
      promptTokens: r.promptTokens,
      toolTokens: r.toolTokens,
      toolTokensByLabel: this.labels(r.toolTokensByLabel),
      systemTokens: r.systemTokens,
      historyTokens: r.historyTokens,
      userTokens: r.userTokens,
      stablePrefixTokens: r.stablePrefixTokens,
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

  private list(ids: readonly string[]): readonly string[] {
    const seen = this.seen?.lists.get(ids);
    if (seen) return seen;
    const key = ids.join('\n');
    let list = this.lists.get(key);
    if (!list) this.lists.set(key, (list = ids.map((id) => this.string(id))));
    this.seen?.lists.set(ids, list);
    return list;
  }

  private labels(byLabel: Record<string, number>): Record<string, number> {
    const seen = this.seen?.labels.get(byLabel);
    if (seen) return seen;
    const key = JSON.stringify(byLabel);
    let shared = this.byLabel.get(key);
    if (!shared) this.byLabel.set(key, (shared = byLabel));
    this.seen?.labels.set(byLabel, shared);
    return shared;
  }
}
