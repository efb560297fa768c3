/** Runs `stop` once on the first SIGINT/SIGTERM, then exits; a second signal exits at once. */
export function onShutdown(stop: () => Promise<void>, log: (event: string, fields?: Record<string, unknown>) => void): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals): void => {
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
