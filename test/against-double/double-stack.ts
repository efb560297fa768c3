/**
 * The engine against the provider double: the double started on its own (test/doubles/), the engine harness
 * pointed at it as an external provider and configured by settings alone, the settings
 * docs/provider-integration.md tells an integrator to set for this provider.
 */
import { pollUntil } from '../../src/util/poll';
import { DoubleControl, type Operation, type OperationKind } from '../doubles/double-control-client';
import { startProviderDouble, type ProviderDouble, type ProviderDoubleOptions } from '../doubles/provider-double';
import { startEngineHarness, type EngineHarness, type HarnessOptions } from '../helpers/engine-harness';

export interface DoubleStack {
  engine: EngineHarness;
  double: ProviderDouble;
  control: DoubleControl;
  close(): Promise<void>;
}

/**
 * What an integrator sets for this provider, read from its document and its onboarding (credentials, the
 * browser module's URLs and key) and from what it chose where the document is silent. Every name here is in
 * docs/provider-integration.md's table.
 */
export function integratorSettings(double: ProviderDouble): Record<string, string> {
  return {
    PAYMENT_API_CLIENT_ID: double.credentials.clientId,
    PAYMENT_API_CLIENT_SECRET: double.credentials.clientSecret,
    // Its callbacks are unsigned: each is a hint that makes the engine ask the check.
    PROVIDER_CALLBACK_SIGNATURES: 'optional',
    // Its callbacks' own field names: its transactionId as `id`, the status as `state`, the reason as `motivo`.
    WITHDRAWAL_CALLBACK_FIELDS: 'transactionId=id,status=state,reason=motivo',
    PIX_COPY_PASTE_CALLBACK_FIELDS: 'transactionId=id,status=state,reason=motivo',
    CASH_IN_CALLBACK_FIELDS: 'transactionId=id,status=state',
    // Its withdrawal fee (R$ 0,75 + 2 %), for previews; the fee recorded is the one it answers.
    PROVIDER_PIX_FEE_FIXED: '0.75',
    PROVIDER_PIX_FEE_PERCENT: '2',
    PIX_COPY_PASTE_REQUEST_FIELDS: 'emv=payload,amount=value,externalId=reference,callbackUrl=notifyUrl',
    MED_RECORD_FIELDS:
      'id=infraction_id,status=situacao,transactionId=transacao_id,amount=valor,createdAt=aberta_em,defenseDeadline=prazo_defesa,reason=motivo_abertura',
    INFRACTION_ANALISE_VALUES: 'CONCORDO,DISCORDO',
    // It shows no endpoint that creates a crypto withdrawal: the rail stays off (empty is unset).
    PAYMENT_API_CRYPTO_WITHDRAW_PATH: '',
    CRYPTO_FEE_RATE_UNIT: 'fraction',
    CRYPTO_FEE_FIXED_UNIT: 'usdt',
    PAYMENT_SHIELD_SCRIPT_URL: double.scriptUrl,
    PAYMENT_SHIELD_SETTINGS_URL: double.settingsUrl,
    PAYMENT_SHIELD_PUBLIC_KEY: double.publicKey,
    PAYMENT_SHIELD_STEP_ORDER: 'spec',
    // Its module takes the document's arguments one by one: prepareThreeDS(amount, installments, currency), encrypt(number, …).
    PAYMENT_SHIELD_ARGUMENTS: 'positional',
  };
}

export async function startAgainstDouble(
  overrides: Record<string, string> = {},
  options: { double?: ProviderDoubleOptions; harness?: Omit<HarnessOptions, 'externalProvider'> } = {},
): Promise<DoubleStack> {
  const double = await startProviderDouble(options.double);
  const engine = await startEngineHarness(
    { ...integratorSettings(double), ...overrides },
    { ...options.harness, externalProvider: double.url },
  );
  return {
    engine,
    double,
    control: new DoubleControl(double.url),
    async close() {
      await engine.close();
      await double.close();
    },
  };
}

/** The operations the double made for a client id, once there is at least one. */
export function operationsOnceMade(stack: DoubleStack, clientId: string, kind?: OperationKind): Promise<Operation[]> {
  return pollUntil(
    async () => {
      const operations = await stack.control.operations({ clientId, ...(kind ? { kind } : {}) });
      return operations.length > 0 ? operations : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 100, description: `the double to make an operation for ${clientId}` },
  );
}
