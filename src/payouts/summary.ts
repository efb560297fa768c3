/**
 * What the Temporal UI shows in a payout's row and header (the SDK's user metadata, encrypted like every
 * payload): the rail, the amount and the destination, masked. Pure: the start request builds it.
 */
import { formatCentavos } from '../money/centavos';
import { parseBrCode } from '../pix/brcode';
import { maskPixKey } from '../pix/keys';
import type { PayoutInput } from './payout-input';

function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${email.slice(0, 1)}***${email.slice(at)}` : '***';
}

function payee(input: PayoutInput): string {
  switch (input.method) {
    case 'pix_key':
      return `${input.keyType} ${maskPixKey(input.keyType, input.pixKey)}`;
    case 'pix_copy_paste': {
      const { merchantName, merchantCity } = parseBrCode(input.emv);
      return `${merchantName} (${merchantCity})`;
    }
    case 'internal':
      return maskEmail(input.email);
    case 'crypto':
      return `${input.wallet.slice(0, 4)}…${input.wallet.slice(-4)} (${input.network})`;
  }
}

const RAIL_NAMES = {
  pix_key: 'PIX',
  pix_copy_paste: 'PIX copy-and-paste',
  internal: 'Internal transfer',
  crypto: 'USDT',
} as const;

export function payoutSummary(input: PayoutInput): string {
  return `${RAIL_NAMES[input.method]} R$ ${formatCentavos(input.amountCents)} to ${payee(input)}`;
}

export function payoutDetails(input: PayoutInput): string {
  return [
    `externalId: ${input.externalId}`,
    ...(input.batchId ? [`batch: ${input.batchId}`] : []),
    `method: ${input.method}`,
  ].join('\n');
}
