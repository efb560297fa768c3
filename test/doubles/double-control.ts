/**
 * The tests' handle on the double, under /__double/ and apart from every provider route: settle a
 * withdrawal, pay or expire a charge, open and resolve infractions, and read what the double did (its
 * operations by client id, the requests it received, the callbacks it sent).
 */
import { Router } from 'express';
import { expireCharge, payCharge } from './double-cash-in';
import { openInfraction } from './double-med';
import { settle } from './double-pix-out';
import { refuse } from './double-auth';
import { reaisToCentavos, type DoubleState } from './double-state';

export const CONTROL_PREFIX = '/__double';
const SITUACOES = ['ACCEPTED', 'REJECTED', 'CANCELLED'];

export function controlRoutes(state: DoubleState): Router {
  const router = Router();

  router.post(`${CONTROL_PREFIX}/settle/:id`, (req, res) => {
    const operation = state.find(req.params.id);
    const { outcome, motivo } = (req.body ?? {}) as { outcome?: unknown; motivo?: unknown };
    if (!operation || (operation.kind !== 'withdrawal' && operation.kind !== 'pix-copy-paste'))
      return refuse(res, 404, `no withdrawal or copy-and-paste payment ${req.params.id}`);
    if (operation.state !== 'PROCESSING') return refuse(res, 409, `the operation is ${operation.state}`);
    if (outcome !== 'COMPLETO' && outcome !== 'FALHA') return refuse(res, 400, 'outcome is COMPLETO or FALHA');
    settle(state, operation, outcome, typeof motivo === 'string' ? motivo : undefined);
    res.json({ operation });
  });

  for (const [action, run] of [
    ['pay', payCharge],
    ['expire', expireCharge],
  ] as const) {
    router.post(`${CONTROL_PREFIX}/${action}/:id`, (req, res) => {
      const operation = state.find(req.params.id);
      if (!operation) return refuse(res, 404, `no charge ${req.params.id}`);
      const refused = run(state, operation);
      if (refused) return refuse(res, 409, refused);
      res.json({ operation });
    });
  }

  router.post(`${CONTROL_PREFIX}/infractions`, (req, res) => {
    const { transactionId, amount, reason } = (req.body ?? {}) as {
      transactionId?: unknown;
      amount?: unknown;
      reason?: unknown;
    };
    const amountCents = reaisToCentavos(amount);
    if (typeof transactionId !== 'string' || amountCents === undefined)
      return refuse(res, 400, 'transactionId and amount (reais) are required');
    res.json({
      infraction: openInfraction(state, {
        transactionId,
        amountCents,
        ...(typeof reason === 'string' ? { reason } : {}),
      }),
    });
  });

  router.get(`${CONTROL_PREFIX}/infractions/:id`, (req, res) => {
    const infraction = state.infractions.find((candidate) => candidate.infraction_id === req.params.id);
    if (!infraction) return refuse(res, 404, `no infraction ${req.params.id}`);
    res.json({ infraction });
  });

  router.post(`${CONTROL_PREFIX}/infractions/:id/resolve`, (req, res) => {
    const infraction = state.infractions.find((candidate) => candidate.infraction_id === req.params.id);
    const situacao = (req.body as { situacao?: unknown } | undefined)?.situacao;
    if (!infraction) return refuse(res, 404, `no infraction ${req.params.id}`);
    if (typeof situacao !== 'string' || !SITUACOES.includes(situacao))
      return refuse(res, 400, `situacao is one of ${SITUACOES.join(', ')}`);
    infraction.situacao = situacao as typeof infraction.situacao;
    res.json({ infraction });
  });

  router.get(`${CONTROL_PREFIX}/operations`, (req, res) => {
    const { clientId, kind } = req.query;
    res.json({
      operations: state.operations.filter(
        (operation) =>
          (clientId === undefined || operation.clientId === clientId) &&
          (kind === undefined || operation.kind === kind),
      ),
    });
  });
  router.get(`${CONTROL_PREFIX}/requests`, (_req, res) => {
    res.json({ requests: state.requests });
  });
  router.get(`${CONTROL_PREFIX}/callbacks`, (_req, res) => {
    res.json({ callbacks: state.callbacks });
  });

  return router;
}
