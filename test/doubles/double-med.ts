/**
 * MED: endpoint 7 lists infractions under `infracoes`, with field names of the double's own, at most 25 a
 * page whatever perPage asks; endpoint 8 takes a defense (analise CONCORDO or DISCORDO) and answers
 * `{ "message" }` alone. Infractions are opened and resolved by the test (`openInfraction`, `resolveInfraction`).
 */
import { Router } from 'express';
import { refuse, type DoubleAuth } from './double-auth';
import { centavosToReais, opaque, type DoubleState, type Infraction } from './double-state';

export const PAGE_CAP = 25;
/** The double's `analise` words: the client agrees with the claim, or contests it. */
export const ANALISE_WORDS = ['CONCORDO', 'DISCORDO'] as const;
const DEFENSE_WINDOW_MS = 7 * 86_400_000;

type Listed = Omit<Infraction, 'defesas'>;
const listed = ({ defesas: _defenses, ...record }: Infraction): Listed => record;

export function medRoutes(state: DoubleState, auth: DoubleAuth): Router {
  const router = Router();

  router.get('/api/meds/infractions/list', auth.clientHeaders, (req, res) => {
    const [page, perPage] = [Number(req.query.page ?? 1), Number(req.query.perPage ?? PAGE_CAP)];
    if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1)
      return refuse(res, 400, 'page e perPage devem ser inteiros positivos');
    const size = Math.min(perPage, PAGE_CAP);
    res.json({
      infracoes: state.infractions.slice((page - 1) * size, page * size).map(listed),
      pagina: page,
      por_pagina: size,
    });
  });

  router.post('/api/meds/infractions/:infractionId/defense', auth.clientHeaders, (req, res) => {
    const infraction = state.infractions.find((candidate) => candidate.infraction_id === req.params.infractionId);
    if (!infraction) return refuse(res, 404, 'infração não encontrada');
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body.analise !== 'string' || !(ANALISE_WORDS as readonly string[]).includes(body.analise))
      return refuse(res, 400, `analise deve ser ${ANALISE_WORDS.join(' ou ')}`);
    if (typeof body.justificativa !== 'string' || body.justificativa.trim() === '')
      return refuse(res, 400, 'justificativa é obrigatória');
    const proofs = body.proofs ?? [];
    if (!Array.isArray(proofs) || !proofs.every((proof) => typeof proof === 'string'))
      return refuse(res, 400, 'proofs deve ser uma lista de URLs');
    if (infraction.situacao !== 'WAITING_PSP') return refuse(res, 409, `a infração está ${infraction.situacao}`);
    infraction.defesas.push({
      analise: body.analise,
      justificativa: body.justificativa,
      proofs,
      recebida_em: state.nowIso(),
    });
    res.json({ message: 'Defesa recebida' });
  });

  return router;
}

export function openInfraction(
  state: DoubleState,
  fields: { transactionId: string; amountCents: number; reason?: string },
): Infraction {
  const openedAt = state.now();
  const infraction: Infraction = {
    infraction_id: `med_${opaque(8)}`,
    transacao_id: fields.transactionId,
    situacao: 'WAITING_PSP',
    valor: centavosToReais(fields.amountCents),
    motivo_abertura: fields.reason ?? 'golpe',
    aberta_em: new Date(openedAt).toISOString(),
    prazo_defesa: new Date(openedAt + DEFENSE_WINDOW_MS).toISOString(),
    defesas: [],
  };
  state.infractions.push(infraction);
  return infraction;
}
