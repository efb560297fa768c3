/**
 * Money out: PIX withdrawals (endpoints 4 and 4a), copy-and-paste payments (5), internal transfers (11
 * and 11a), and the transaction check (9). Withdrawals and payments answer PROCESSING and stay there until
 * the test settles them (`settle`); a transfer is done when it is answered.
 */
import { Router, type Request, type Response } from 'express';
import { readCode } from './double-brcode';
import { payoutStatusPayload, sendCallback } from './double-callbacks';
import { refuse, type DoubleAuth } from './double-auth';
import {
  basisPoints,
  centavosToReais,
  DOUBLE_USERS,
  reaisToCentavos,
  type DoubleState,
  type Operation,
  type OperationKind,
} from './double-state';

/** The fee of a withdrawal and of a copy-and-paste payment, charged when the request is made: R$ 0,75 plus 2 %. */
export const WITHDRAWAL_FEE = { fixedCents: 75, basisPoints: 200 } as const;
const KEY_TYPES = ['CPF', 'EMAIL', 'PHONE'];

/** Endpoint 5's request fields (the document does not show them): the double's own names. */
export const COPY_PASTE_FIELDS = {
  emv: 'payload',
  amount: 'value',
  externalId: 'reference',
  callbackUrl: 'notifyUrl',
} as const;

const feeOf = (amountCents: number): number =>
  WITHDRAWAL_FEE.fixedCents + basisPoints(amountCents, WITHDRAWAL_FEE.basisPoints);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

const CHECK_TYPES: Record<OperationKind, [type: string, method: string]> = {
  withdrawal: ['SAQUE', 'PIX'],
  'pix-copy-paste': ['PAGAMENTO', 'PIX'],
  'internal-transfer': ['TRANSFERENCIA', 'INTERNO'],
  'cash-in': ['DEPOSITO', 'PIX'],
  'card-payment': ['CARTAO', 'CARTAO'],
};

/** A withdrawal or copy-and-paste payment reaches its final status: the balance follows, the client is told. */
export function settle(state: DoubleState, operation: Operation, outcome: 'COMPLETO' | 'FALHA', motivo?: string): void {
  state.move(
    operation,
    outcome,
    outcome === 'FALHA' ? (motivo ?? 'Pagamento recusado pela instituição recebedora') : undefined,
  );
  if (outcome === 'FALHA') state.balanceCents += operation.amountCents + operation.feeCents;
  void sendCallback(state, operation.callbackUrl, payoutStatusPayload(operation));
}

export function pixOutRoutes(state: DoubleState, auth: DoubleAuth): Router {
  const router = Router();

  /** Debits a PIX out and keeps it PROCESSING; undefined (answered) when the balance does not cover it. */
  function debit(
    res: Response,
    fields: Omit<Operation, 'id' | 'createdAt' | 'updatedAt' | 'state' | 'feeCents'>,
  ): Operation | undefined {
    const feeCents = feeOf(fields.amountCents);
    if (fields.amountCents + feeCents > state.balanceCents) {
      refuse(res, 400, 'saldo insuficiente');
      return undefined;
    }
    state.balanceCents -= fields.amountCents + feeCents;
    return state.add({ ...fields, feeCents, state: 'PROCESSING' });
  }

  const withdraw = (req: Request, res: Response): void => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const amountCents = reaisToCentavos(body.amount);
    const [externalId, pixKey, callbackUrl] = [
      text(body.external_id),
      text(body.pix_key),
      text(body.clientCallbackUrl),
    ];
    if (amountCents === undefined) return refuse(res, 400, 'amount deve ser um valor positivo em reais');
    if (!externalId || !pixKey || !callbackUrl)
      return refuse(res, 400, 'external_id, pix_key e clientCallbackUrl são obrigatórios');
    if (typeof body.key_type !== 'string' || !KEY_TYPES.includes(body.key_type))
      return refuse(res, 400, `key_type deve ser um de ${KEY_TYPES.join(', ')}`);
    const operation = debit(res, { kind: 'withdrawal', clientId: externalId, amountCents, callbackUrl });
    if (!operation) return;
    const [amount, fee] = [centavosToReais(amountCents), centavosToReais(operation.feeCents)];
    res.json({
      message: 'Saque em processamento',
      transactionId: operation.id,
      withdrawal: {
        transaction_id: operation.id,
        external_id: externalId,
        status: 'PROCESSING',
        amount,
        fee,
        total: centavosToReais(amountCents + operation.feeCents),
        type: 'Withdrawal',
      },
    });
  };
  router.post('/api/withdrawals/withdraw', auth.bearer, withdraw);
  router.post('/api/payments/withdrawal', auth.bearer, withdraw);

  router.post('/api/payments/pix-copy-paste/pay', auth.bearer, (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const emv = text(body[COPY_PASTE_FIELDS.emv]);
    const code = emv ? readCode(emv) : undefined;
    if (!code) return refuse(res, 400, `${COPY_PASTE_FIELDS.emv} deve ser um código copia e cola válido`);
    const codeAmount = code.get('54');
    const given =
      body[COPY_PASTE_FIELDS.amount] === undefined ? undefined : reaisToCentavos(body[COPY_PASTE_FIELDS.amount]);
    const fromCode = codeAmount === undefined ? undefined : reaisToCentavos(Number(codeAmount));
    if (body[COPY_PASTE_FIELDS.amount] !== undefined && given === undefined)
      return refuse(res, 400, `${COPY_PASTE_FIELDS.amount} deve ser um valor positivo em reais`);
    if (given !== undefined && fromCode !== undefined && given !== fromCode)
      return refuse(res, 400, 'o valor difere do valor do código');
    const amountCents = given ?? fromCode;
    if (amountCents === undefined)
      return refuse(res, 400, `o código não tem valor: informe ${COPY_PASTE_FIELDS.amount}`);
    const reference = text(body[COPY_PASTE_FIELDS.externalId]);
    const operation = debit(res, {
      kind: 'pix-copy-paste',
      ...(reference ? { clientId: reference } : {}),
      amountCents,
      callbackUrl: text(body[COPY_PASTE_FIELDS.callbackUrl]),
    });
    if (!operation) return;
    res.json({
      message: 'Pagamento em processamento',
      data: {
        transactionId: operation.id,
        status: 'PROCESSING',
        amount: centavosToReais(amountCents),
        fee: centavosToReais(operation.feeCents),
        total: centavosToReais(amountCents + operation.feeCents),
      },
    });
  });

  const internal = (req: Request, res: Response): void => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const amountCents = reaisToCentavos(body.amount);
    if (amountCents === undefined) return refuse(res, 400, 'amount deve ser um valor positivo em reais');
    const email = text(body.email)?.toLowerCase() ?? '';
    const recipientName = DOUBLE_USERS[email];
    // Rule 3: the e-mail must belong to a user of this environment.
    if (!recipientName) return refuse(res, 404, 'o e-mail não pertence a um usuário deste ambiente');
    if (amountCents > state.balanceCents) return refuse(res, 400, 'saldo insuficiente');
    state.balanceCents -= amountCents;
    const operation = state.add({
      kind: 'internal-transfer',
      amountCents,
      feeCents: 0,
      state: 'COMPLETO',
      recipientEmail: email,
    });
    res.json({
      message: 'Transferência realizada',
      data: {
        transactionId: operation.id,
        amount: centavosToReais(amountCents),
        recipientEmail: email,
        recipientName,
        newBalance: centavosToReais(state.balanceCents),
      },
    });
  };
  router.post('/api/transactions/internal', auth.clientHeaders, internal);
  router.post('/api/transactions/withdraw/internal', auth.clientHeaders, internal);

  router.post('/api/transactions/check', auth.clientHeaders, (req, res) => {
    const id = text((req.body as { transactionId?: unknown } | undefined)?.transactionId);
    if (!id) return refuse(res, 400, 'transactionId é obrigatório');
    const operation = state.find(id);
    if (!operation || operation.kind === 'card-payment') return refuse(res, 404, 'transação não encontrada');
    const [transactionType, transactionMethod] = CHECK_TYPES[operation.kind];
    res.json({
      message: 'Transação encontrada',
      transaction: {
        transactionId: operation.id,
        value: centavosToReais(operation.amountCents),
        fee: centavosToReais(operation.feeCents),
        transactionState: operation.state,
        transactionType,
        transactionMethod,
        createdAt: operation.createdAt,
        updatedAt: operation.updatedAt,
      },
    });
  });

  return router;
}
