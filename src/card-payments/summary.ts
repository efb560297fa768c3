/**
 * What the Temporal UI shows in a card payment's row and header (the SDK's user metadata, encrypted like
 * every payload): amount, installments and the payer masked. Never card data, which the workflow never has.
 */
import { formatCentavos } from '../money/centavos';
import type { CardPaymentInput } from './card-payment-input';

function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${email.slice(0, 1)}***${email.slice(at)}` : '***';
}

export function cardPaymentSummary({ order }: CardPaymentInput): string {
  const installments = order.installmentCount > 1 ? ` in ${order.installmentCount} installments` : '';
  return `Card R$ ${formatCentavos(order.amountCents)}${installments} from ${maskEmail(order.payer.email)}`;
}

export function cardPaymentDetails(input: CardPaymentInput): string {
  return [
    `externalId: ${input.order.externalId}`,
    `checkout expires: ${input.expiresAt}`,
    ...(input.order.items ? [`items: ${input.order.items.length}`] : []),
  ].join('\n');
}
