/**
 * Runs `stop` once on the first SIGINT/SIGTERM, then exits; a second signal exits at once, unless
 * `repeatForcesExit` is false: a launcher whose children run in process groups of their own would
 * leave them running (and a terminal's Ctrl-C can reach it twice, from the terminal and from tsx).
 */
export function onShutdown(
  stop: () => Promise<void>,
  log: (event: string, fields?: Record<string, unknown>) => void,
  options: { repeatForcesExit?: boolean } = {},
): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals): void => {
    if (stopping && options.repeatForcesExit === false) return;
    if (stopping) {
      log('shutdown.forced', { signal });
      process.exit(130);
    }
    stopping = true;
    log('shutdown.started', { signal });
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log('shutdown.failed', { error });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}
