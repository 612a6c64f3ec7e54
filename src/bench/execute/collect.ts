import { RecordCompactor } from '../../measure/compact-records.ts';
import type { PipelineSummary } from '../../measure/summarize.ts';
import type { ManifestPipeline } from '../../results/manifest.ts';
import type { Table } from '../../table/table.ts';
import type { BenchUnit, PipelineRun, StudyInputs, StudyRun } from '../types.ts';

/**
 * The units' results as they arrive, from any lane or from a merged part, in the order the run
 * reports them: the pipelines in registry order once every one is in (then handed to the
 * studies of their results), each study's tables by id.
 */
export class Collected {
  readonly summaries: PipelineSummary[] = [];
  readonly ran: ManifestPipeline[] = [];
  readonly studyTables = new Map<string, Table[]>();
  readonly pipelineRuns = new Map<string, PipelineRun>();
  /** The files of the units restored from their records: the run's own, even those left as they were. */
  readonly restoredFiles: string[] = [];
  /**
   * Records from a worker lane arrive with a copy of every string: shared again across the
   * run's records. The compactor's own maps are let go once every pipeline's records are in.
   */
  private compactor: RecordCompactor | undefined = new RecordCompactor();

  /** `pipelineIds`: the run's pipeline units in registry order; `ready`: where the studies' inputs go once they are complete. */
  constructor(
    private readonly pipelineIds: readonly string[],
    private readonly ready: (studyInputs: StudyInputs) => void,
  ) {
    if (pipelineIds.length === 0) this.setResults();
  }

  get pipelinesDone(): boolean {
    return this.pipelineRuns.size === this.pipelineIds.length;
  }

  add(unit: BenchUnit, result: PipelineRun | StudyRun): void {
    if (unit.kind === 'study') {
      this.studyTables.set(unit.id, (result as StudyRun).tables);
      return;
    }
    const run = result as PipelineRun;
    run.records = this.compactor!.compactAll(run.records);
    this.pipelineRuns.set(unit.id, run);
    if (this.pipelinesDone) this.setResults();
  }

  /** The files the pipeline units wrote, with their SHA-256 (the manifest lists them without hashing them again). */
  knownFiles(): Map<string, string> {
    return new Map([...this.pipelineRuns.values()].flatMap((r) => r.files.map((f) => [f.path, f.sha256] as const)));
  }

  private setResults(): void {
    const runs = this.pipelineIds.map((id) => this.pipelineRuns.get(id)!);
    for (const r of runs) this.ran.push(r.manifest);
    this.summaries.push(...runs.map((r) => r.summary));
    this.ready({
      records: this.pipelineIds.map((id, i) => [id, runs[i]!.records]),
      summaries: this.summaries,
      perStudy: this.pipelineIds.map((id, i) => [id, runs[i]!.perStudy]),
    });
    this.compactor = undefined;
  }
}
