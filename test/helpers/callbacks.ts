/** The provider's withdrawal callback as tests send it to the engine: its body, and a POST under a given signature. */
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '../../src/payment-api/webhook-signature';

/** The body of a withdrawal callback (endpoint 5's shape), updated now. */
export function withdrawalCallbackBody(fields: {
  transactionId: string;
  /** Absent: the callback names the withdrawal only by the provider's id. */
  externalId?: string;
  status: string;
  amount: number;
  fee: number;
  total: number;
}): string {
  return JSON.stringify({
    transaction_id: fields.transactionId,
    ...(fields.externalId === undefined ? {} : { external_id: fields.externalId }),
    status: fields.status,
    amount: fields.amount,
    fee: fields.fee,
    total: fields.total,
    type: 'Withdrawal',
    updated_at: new Date().toISOString(),
  });
}

/** POSTs `body` to the engine's withdrawal callback route under `signed`, with any further headers. */
export function postSignedWithdrawalCallback(
  apiUrl: string,
  body: string,
  signed: { timestamp: string; signature: string },
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${apiUrl}/callbacks/withdrawals`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [WEBHOOK_TIMESTAMP_HEADER]: signed.timestamp,
      [WEBHOOK_SIGNATURE_HEADER]: signed.signature,
      ...headers,
    },
    body,
  });
}
