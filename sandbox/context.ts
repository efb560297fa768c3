/** Everything a product module needs, built once per sandbox and handed to every handler and job. */
import type { Config } from '../src/config/env';
import type { Logger } from '../src/logging/logger';
import type { CallbackRecord, NewCallback, Outbox } from './callbacks/outbox';
import type { FaultState } from './faults/fault-state';
import type { Scheduler } from './jobs/scheduler';
import type { SandboxProfile } from './profiles/seed-profile';
import type { Ledger } from './ledger/ledger';
import type { SandboxDatabase } from './store/database';
import type { OperationStore } from './store/operations';
import type { UserStore } from './store/users';

export interface SandboxContext {
  config: Config;
  db: SandboxDatabase;
  users: UserStore;
  operations: OperationStore;
  ledger: Ledger;
  scheduler: Scheduler;
  outbox: Outbox;
  faults: FaultState;
  logger: Logger;
  /** Sandbox time in Unix ms (injectable for tests): timestamps, due times, token expiry, signatures. */
  now: () => number;
  jwtKey: Buffer;
  /** SANDBOX_PROFILE: what leaves the sandbox, as the default profile or a spec-only provider shapes it. */
  profile: SandboxProfile;
  /** Queues a callback (applying the callback faults); call inside the state change's transaction. */
  enqueueCallback(callback: NewCallback): CallbackRecord;
}
