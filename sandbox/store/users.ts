/**
 * Users of the sandbox environment: each one is a client (client_id / client_secret) with a balance
 * in the ledger. Two are seeded so that a fresh sandbox can pay out and transfer at once.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../src/config/env';
import { ACCOUNTS, type Ledger } from '../ledger/ledger';
import type { SandboxDatabase } from './database';

export interface SandboxUser {
  id: string;
  email: string;
  name: string;
  clientId: string;
}

export const SEEDED_USERS = {
  merchant: {
    id: 'merchant',
    email: 'merchant@sandbox.test',
    name: 'Sandbox Merchant',
    openingBalanceCents: 100_000_000,
  },
  recipient: { id: 'recipient', email: 'recipient@sandbox.test', name: 'Sandbox Recipient', openingBalanceCents: 0 },
} as const;

export const RECIPIENT_CREDENTIALS = { clientId: 'recipient-client', clientSecret: 'recipient-secret' } as const;

const sha256 = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

interface UserRow {
  id: string;
  email: string;
  name: string;
  client_id: string;
  client_secret_sha256: string;
}

const toUser = (row: UserRow): SandboxUser => ({
  id: row.id,
  email: row.email,
  name: row.name,
  clientId: row.client_id,
});

export interface UserStore {
  /** The user whose credentials these are, compared in constant time; undefined when they do not match. */
  authenticate(clientId: string, clientSecret: string): SandboxUser | undefined;
  byId(id: string): SandboxUser | undefined;
  byClientId(clientId: string): SandboxUser | undefined;
  byEmail(email: string): SandboxUser | undefined;
  list(): SandboxUser[];
}

export function createUserStore(db: SandboxDatabase): UserStore {
  const byClientId = db.prepare<[string], UserRow>('SELECT * FROM users WHERE client_id = ?');
  const byId = db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?');
  const byEmail = db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ? COLLATE NOCASE');
  // Compared against when the client id is unknown, so both paths do the same work.
  const decoy = sha256('no such client').toString('hex');
  return {
    authenticate(clientId, clientSecret) {
      const row = byClientId.get(clientId);
      const expected = Buffer.from(row?.client_secret_sha256 ?? decoy, 'hex');
      const matches = timingSafeEqual(sha256(clientSecret), expected);
      return row && matches ? toUser(row) : undefined;
    },
    byId: (id) => {
      const row = byId.get(id);
      return row ? toUser(row) : undefined;
    },
    byClientId: (clientId) => {
      const row = byClientId.get(clientId);
      return row ? toUser(row) : undefined;
    },
    byEmail: (email) => {
      const row = byEmail.get(email.trim());
      return row ? toUser(row) : undefined;
    },
    list: () => db.prepare<[], UserRow>('SELECT * FROM users ORDER BY created_at, id').all().map(toUser),
  };
}

/**
 * Creates the two seeded users on first start and funds the merchant through the ledger. On every
 * start the merchant's credentials follow PAYMENT_API_CLIENT_ID/SECRET, so rotating them in the
 * environment does not strand an existing sandbox file.
 */
export function seedUsers(db: SandboxDatabase, ledger: Ledger, config: Config, now: () => number): void {
  const insert = db.prepare(
    'INSERT INTO users (id, email, name, client_id, client_secret_sha256, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING',
  );
  const updateCredentials = db.prepare('UPDATE users SET client_id = ?, client_secret_sha256 = ? WHERE id = ?');
  db.transaction(() => {
    const seeds = [
      {
        ...SEEDED_USERS.merchant,
        clientId: config.PAYMENT_API_CLIENT_ID,
        clientSecret: config.PAYMENT_API_CLIENT_SECRET,
      },
      { ...SEEDED_USERS.recipient, ...RECIPIENT_CREDENTIALS },
    ];
    for (const seed of seeds) {
      const secretHash = sha256(seed.clientSecret).toString('hex');
      const created = insert.run(seed.id, seed.email, seed.name, seed.clientId, secretHash, now()).changes > 0;
      if (!created) {
        updateCredentials.run(seed.clientId, secretHash, seed.id);
        continue;
      }
      if (seed.openingBalanceCents > 0) {
        ledger.post({
          kind: 'seed',
          operationId: null,
          externalId: null,
          lines: [
            { account: ACCOUNTS.equitySeed, amountCents: -seed.openingBalanceCents },
            { account: ACCOUNTS.user(seed.id), amountCents: seed.openingBalanceCents },
          ],
        });
      }
    }
  })();
}
