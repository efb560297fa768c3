/** What the Temporal UI shows in a charge's row and header: amount and the payer's document, masked; no name. */
import { formatCentavos } from '../money/centavos';
import { maskDocument } from '../validation/document';
import type { ChargeRequest } from './charge-request';

export function chargeSummary(request: ChargeRequest): string {
  return `PIX charge R$ ${formatCentavos(request.amountCents)} from ${request.payer.document.length === 11 ? 'CPF' : 'CNPJ'} ${maskDocument(request.payer.document)}`;
}

export function chargeDetails(request: ChargeRequest): string {
  return [
    `externalId: ${request.externalId}`,
    `expires in: ${request.expiresInSeconds} s`,
    ...(request.split ? [`split: ${request.split.percent}%`] : []),
  ].join('\n');
}
