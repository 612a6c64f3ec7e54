/**
 * What a command's action prints and reports besides its result files: `warn` and `write`
 * already make text terminal-safe (tool text carries no control sequence to the terminal).
 */
export interface CommandOutputs {
  /** The project folder: default inputs and outputs are under it. */
  root: string;
  log: (line: string) => void;
  warn: (line: string) => void;
  write: (text: string) => void;
  setExitCode: (code: number) => void;
}
