/**
 * The card token as the provider's security module makes it in the buyer's browser (`module.encrypt`,
 * sandbox/README.md, browser-side 3DS): RSA-OAEP with SHA-256 under the environment's public key, over the JSON of
 * the card. For what drives a checkout without a browser: tests and `npm run cluster`'s check.
 */
import { constants, publicEncrypt } from 'node:crypto';
import type { CardTokenPayload } from './schemas/security-module';

export function encryptCardToken(publicKeyPem: string, card: CardTokenPayload): string {
  return publicEncrypt(
    { key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(JSON.stringify(card)),
  ).toString('base64');
}
