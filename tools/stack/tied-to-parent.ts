/**
 * Runs a program that cannot watch its parent itself (the Temporal CLI's dev server) under this small
 * process, which forwards SIGTERM and SIGINT to it, exits with it, and stops it (SIGTERM, then SIGKILL
 * after 10 s) when the stack launcher that started this process dies (./parent-watch.ts).
 * Usage: node --import tsx tools/stack/tied-to-parent.ts <program> [args...]
 */
import { spawn } from 'node:child_process';
import { stopWhenParentDies } from '../../src/cli/parent-watch';

const KILL_AFTER_MS = 10_000;
const [program, ...args] = process.argv.slice(2);
if (!program) {
  process.stderr.write('usage: tied-to-parent <program> [args...]\n');
  process.exit(2);
}
const child = spawn(program, args, { stdio: 'inherit' });
const stop = (signal: NodeJS.Signals): void => {
  child.kill(signal);
  setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS).unref();
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
child.on('error', (error) => {
  process.stderr.write(`tied-to-parent: ${error.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
stopWhenParentDies(stop);
