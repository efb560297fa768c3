/**
 * One payload key, several purposes: each gets a subkey of its own (HKDF-SHA256), so that a subkey
 * leaked from one place (a dump of the batch store, say) opens what that purpose sealed and nothing
 * else. Data sealed before the subkeys (the key itself used directly) carries no subkey mark and is
 * still opened with the key itself.
 */
import { hkdfSync } from 'node:crypto';

export type KeyPurpose = 'temporal-payloads' | 'batch-items' | 'webhook-secrets' | 'money-intents';

const SALT = Buffer.from('payout-engine key purposes');

export function purposeKey(key: Buffer, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', key, SALT, `${purpose} v1`, 32));
}
