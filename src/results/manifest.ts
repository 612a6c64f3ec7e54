import type { PipelineSettings } from './pipeline-settings.ts';

export const MANIFEST_FILE = 'run.json';

/** A pipeline that ran, with the registry's typed metadata and its recorded settings. */
export interface ManifestPipeline {
  id: string;
  label: string;
  /** Short code for narrow tables and charts (`B1`, `TA`). */
  code: string;
  group: 'main' | 'ablation' | 'adol';
  /** The reference the others are compared with (B1). */
  baseline: boolean;
  /** A labelled ablation shown beside a main method (B4's oracle discovery): never ranked against the methods. */
  ablationOf?: string;
  settings: PipelineSettings;
}

/**
 * What ran, written by the bench as run.json and read by reports (typed, so a reader never
 * looks for a key the writer does not write).
 */
export interface RunManifest {
  tool: 'tooltax';
  /** package.json version. */
  version: string;
  /** `git rev-parse HEAD` of the checkout, when it is one. */
  commit?: string;
  /** ISO times. */
  startedAt: string;
  finishedAt: string;
  seconds: number;
  catalog: { name: string; source: string; tools: number; servers: string[] };
  /** Where the evaluated tasks came from (a file, or `generated (seed n)`), and how many ran per seed. */
  tasks: { source: string; perSeed: { seed: number; tasks: number }[] };
  tokenizer: string;
  /** How the tool list reached the model (src/hosts); absent in runs written before host profiles: mcp-json. */
  host?: { id: string; label: string };
  encoder: { name: string; description: string };
  seeds: number[];
  quick: boolean;
  /**
   * A run narrowed by --quick, --pipelines or --studies: those options as typed and, with
   * --studies, the studies that ran (else every one did); reports say the run is partial
   * (src/report/findings.ts). Absent for a whole run.
   */
  partial?: { options: string[]; studies?: string[] };
  pipelines: ManifestPipeline[];
  measurementParams: Record<string, unknown>;
  /** Table ids in the order reports print them. */
  tableOrder: string[];
  /** Every file the run wrote under tables/, turns/ and events/ (`report` checks them: run-files.ts). */
  files?: RunFile[];
}

export interface RunFile {
  /** Relative to the results directory, with `/`. */
  path: string;
  sha256: string;
}

/** The baseline pipeline of a run (for "reduction vs B1"), if one ran. */
export function baselineOf(manifest: RunManifest | undefined): ManifestPipeline | undefined {
  return manifest?.pipelines.find((p) => p.baseline);
}
