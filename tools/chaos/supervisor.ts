/**
 * Keeps one part of the chaos stack running, as a process supervisor (systemd, Kubernetes) would in
 * production: the chaos monkey kills it with SIGKILL and starts it again after its pause; a part that
 * exits by itself (a worker whose Temporal went away) is started again at once. A start that fails
 * because another part is down is retried until a generous deadline.
 */

/** One running instance of a part. */
export interface Running {
  pid: number;
  /** Resolves when the process is gone, however it ended. */
  exited: Promise<unknown>;
  /** SIGKILL, no grace. */
  kill(): void;
  /** Graceful stop, at the end of the run. */
  stop(): Promise<void>;
}

/** What the chaos monkey and the run need of a part: a Supervisor, or several processes kept as one. */
export interface Part {
  readonly name: string;
  /** Exits the monkey did not cause. */
  readonly crashes: number;
  start(): Promise<void>;
  kill(): Promise<boolean>;
  stop(): Promise<void>;
}

type SupervisorState = 'down' | 'starting' | 'up' | 'stopped';

const RESTART_AFTER_CRASH_MS = 500;
const RETRY_START_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Supervisor implements Part {
  private running: Running | undefined;
  private state: SupervisorState = 'down';
  private starting: Promise<void> | undefined;
  /** Exits the chaos monkey did not cause. */
  crashes = 0;

  constructor(
    readonly name: string,
    private readonly launch: () => Promise<Running>,
    private readonly log: (line: string) => void,
    private readonly startDeadlineMs = 180_000,
  ) {}

  isUp(): boolean {
    return this.state === 'up';
  }

  /** Starts the part unless it is up or starting; resolves once it is ready. */
  start(): Promise<void> {
    if (this.state === 'up' || this.state === 'stopped') return Promise.resolve();
    this.starting ??= this.startUntilReady().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** SIGKILL; resolves once the process is gone. A part that is not up is left alone (false). */
  async kill(): Promise<boolean> {
    const running = this.running;
    if (this.state !== 'up' || !running) return false;
    this.state = 'down';
    running.kill();
    await running.exited;
    return true;
  }

  /** A method, not a comparison in place: stop() changes the state while a start awaits. */
  private isStopped(): boolean {
    return this.state === 'stopped';
  }

  async stop(): Promise<void> {
    this.state = 'stopped';
    await this.starting?.catch(() => undefined);
    await this.running?.stop();
  }

  private async startUntilReady(): Promise<void> {
    const deadline = Date.now() + this.startDeadlineMs;
    this.state = 'starting';
    for (;;) {
      try {
        const running = await this.launch();
        if (this.isStopped()) {
          await running.stop();
          return;
        }
        this.running = running;
        this.state = 'up';
        void running.exited.then(() => this.onExit(running));
        return;
      } catch (error) {
        if (this.isStopped()) return;
        if (Date.now() >= deadline) {
          this.state = 'down';
          throw new Error(
            `${this.name} could not be started within ${this.startDeadlineMs} ms: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        this.log(
          `${this.name} did not start (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); retrying`,
        );
        await sleep(RETRY_START_MS);
      }
    }
  }

  private onExit(running: Running): void {
    if (running !== this.running) return;
    this.running = undefined;
    // Killed by the monkey (state already down) or stopped: whoever did it starts it again, or nobody.
    if (this.state !== 'up') return;
    this.state = 'down';
    this.crashes += 1;
    this.log(`${this.name} exited by itself; starting it again`);
    void sleep(RESTART_AFTER_CRASH_MS)
      .then(() => this.start())
      .catch((error: unknown) => this.log(`${this.name}: ${error instanceof Error ? error.message : String(error)}`));
  }
}
