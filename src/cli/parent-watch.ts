/**
 * A service started as part of a stack (`npm start`, the bench, fuzz and chaos runs) lives in its own
 * process group, so a terminal's Ctrl-C reaches only the launcher, which stops the services in order.
 * The other side of that: when the launcher itself dies (SIGKILL, or killed past its own stop deadline),
 * nothing signals the services and they would keep running and holding their ports. So each one watches
 * its parent and stops itself, the same way as on SIGTERM, once the parent is gone.
 */

/** Set by the launcher in each service's environment: its own pid. */
export const STACK_PARENT_PID_ENV = 'PAYOUT_STACK_PARENT_PID';

const CHECK_EVERY_MS = 500;
/** A graceful stop that hangs past this (an activity that ignores its shutdown) ends the process anyway. */
const FORCE_EXIT_AFTER_MS = 40_000;

/** When started by a stack launcher, stops this process with SIGTERM (its own shutdown path) once the launcher dies. */
export function stopWhenParentDies(
  onParentGone: (signal: NodeJS.Signals) => void = (signal) => process.kill(process.pid, signal),
): void {
  const expected = Number(process.env[STACK_PARENT_PID_ENV]);
  if (!Number.isInteger(expected) || expected <= 0) return;
  const timer = setInterval(() => {
    // Reparented (to init or a subreaper): the launcher is gone.
    if (process.ppid === expected) return;
    clearInterval(timer);
    setTimeout(() => process.exit(1), FORCE_EXIT_AFTER_MS).unref();
    onParentGone('SIGTERM');
  }, CHECK_EVERY_MS);
  timer.unref();
}
