import cliProgress from 'cli-progress';

export interface Progress {
  tick(n?: number): void;
  stop(): void;
}

/** A progress bar on an interactive terminal; silent in CI and when output is piped. */
export function progress(label: string, total: number): Progress {
  if (!process.stderr.isTTY || process.env.CI) return { tick() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    { format: `${label.padEnd(28)} {bar} {value}/{total} {eta_formatted}`, stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { tick: (n = 1) => bar.increment(n), stop: () => bar.stop() };
}
