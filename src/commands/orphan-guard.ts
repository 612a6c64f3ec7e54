/**
 * Under `npm run`, a signal to npm does not always reach the CLI (npm may exit and leave its
 * child running, re-parented). Exiting when the parent process changes stops the run with its
 * wrapper; the exit goes through the normal handlers (the output-folder lock is released).
 */
export function exitWithParent(): void {
  if (!process.env.npm_lifecycle_event) return; // started directly: a signal reaches us
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      console.error('error: npm, which started this run, has gone; stopping');
      process.exit(143);
    }
  }, 500);
  timer.unref();
}
