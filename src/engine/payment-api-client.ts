import type { Config } from '../config/env';
import { PaymentApiClient } from '../payment-api/client';

/** The payment API client as the engine's processes configure it. */
export function paymentApiClient(
  config: Pick<
    Config,
    'PAYMENT_API_BASE_URL' | 'PAYMENT_API_CLIENT_ID' | 'PAYMENT_API_CLIENT_SECRET' | 'PAYMENT_API_TIMEOUT_MS'
  > &
    Partial<
      Pick<
        Config,
        | 'CASH_IN_DEPOSIT_AUTH'
        | 'CRYPTO_FEE_RATE_UNIT'
        | 'CRYPTO_FEE_FIXED_UNIT'
        | 'INFRACTION_ANALISE_VALUES'
        | 'PAYMENT_API_CRYPTO_WITHDRAW_PATH'
        | 'PIX_COPY_PASTE_REQUEST_FIELDS'
      >
    >,
): PaymentApiClient {
  return new PaymentApiClient({
    baseUrl: config.PAYMENT_API_BASE_URL,
    clientId: config.PAYMENT_API_CLIENT_ID,
    clientSecret: config.PAYMENT_API_CLIENT_SECRET,
    timeoutMs: config.PAYMENT_API_TIMEOUT_MS,
    ...(config.CASH_IN_DEPOSIT_AUTH ? { depositAuth: config.CASH_IN_DEPOSIT_AUTH } : {}),
    ...(config.INFRACTION_ANALISE_VALUES ? { analysisWords: config.INFRACTION_ANALISE_VALUES } : {}),
    ...(config.PAYMENT_API_CRYPTO_WITHDRAW_PATH ? { cryptoWithdrawPath: config.PAYMENT_API_CRYPTO_WITHDRAW_PATH } : {}),
    ...(config.PIX_COPY_PASTE_REQUEST_FIELDS ? { pixCopyPasteFields: config.PIX_COPY_PASTE_REQUEST_FIELDS } : {}),
    cryptoFeeUnits: { rate: config.CRYPTO_FEE_RATE_UNIT ?? 'percent', fixed: config.CRYPTO_FEE_FIXED_UNIT ?? 'reais' },
  });
}
