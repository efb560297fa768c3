/**
 * The minimal payout's two provider calls, as local activities (docs/payment-service-interface.md): the PIX-key
 * withdrawal (endpoint 4, Bearer JWT from endpoint 1) and the transaction check (endpoint 9, ci/cs headers). Node's
 * fetch, answers read with zod. `onChecked` tells the process's own starter what a check found (it paces by it).
 */
import { z } from 'zod';
import type { CheckedState, MinimalPayoutInput, MinimalProviderCalls } from './contract';

export interface ProviderSettings {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  callbackUrl: string;
  timeoutMs: number;
}

const loginAnswer = z.object({ token: z.string().min(1) });
const withdrawalAnswer = z.object({ transactionId: z.string().min(1) });
const checkAnswer = z.object({ transaction: z.object({ transactionState: z.string().min(1) }) });

class ProviderRefusal extends Error {
  constructor(
    readonly status: number,
    path: string,
  ) {
    super(`provider answered ${status} to ${path}`);
  }
}

export function createProviderCalls(
  settings: ProviderSettings,
  onChecked: (state: CheckedState) => void,
): MinimalProviderCalls {
  let token: Promise<string> | undefined;

  async function post<S extends z.ZodType>(path: string, body: unknown, headers: Record<string, string>, answer: S) {
    const response = await fetch(settings.baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new ProviderRefusal(response.status, path);
    }
    return answer.parse(await response.json());
  }

  /** Logged in once and kept; a failed login is not kept, so the next call logs in again. */
  const loggedIn = (): Promise<string> =>
    (token ??= post(
      '/api/auth/login',
      { client_id: settings.clientId, client_secret: settings.clientSecret },
      {},
      loginAnswer,
    ).then(
      (answer) => answer.token,
      (error: unknown) => {
        token = undefined;
        throw error;
      },
    ));

  /** A Bearer call; a 401 (the token expired) logs in again, once. */
  async function withToken<S extends z.ZodType>(path: string, body: unknown, answer: S): Promise<z.output<S>> {
    try {
      return await post(path, body, { authorization: `Bearer ${await loggedIn()}` }, answer);
    } catch (error) {
      if (!(error instanceof ProviderRefusal && error.status === 401)) throw error;
      token = undefined;
      return post(path, body, { authorization: `Bearer ${await loggedIn()}` }, answer);
    }
  }

  return {
    async submitWithdrawal(input: MinimalPayoutInput) {
      const answer = await withToken(
        '/api/withdrawals/withdraw',
        {
          amount: input.amountCents / 100,
          external_id: input.externalId,
          pix_key: input.pixKey,
          key_type: input.keyType,
          clientCallbackUrl: settings.callbackUrl,
        },
        withdrawalAnswer,
      );
      return { transactionId: answer.transactionId };
    },
    async checkWithdrawal(transactionId: string) {
      const answer = await post(
        '/api/transactions/check',
        { transactionId },
        { ci: settings.clientId, cs: settings.clientSecret },
        checkAnswer,
      );
      onChecked(answer.transaction.transactionState);
      return answer.transaction.transactionState;
    },
  };
}
