/**
 * MED infractions: endpoint 7 (GET /api/meds/infractions/list) and endpoint 8
 * (POST /api/meds/infractions/:infractionId/defense), both with ci/cs headers. Infractions are opened
 * by the admin call of ./infractions/admin.ts on a PAID cash-in (the payer's bank claims it back).
 *
 * Life of one (docs/assumptions.md §8): WAITING_PSP with defenseDeadline = createdAt + 7 days. A
 * defense (once, while WAITING_PSP and before the deadline) is recorded at once and resolved
 * SANDBOX_INFRACTION_RESOLVE_MS later (ACEITA → ACCEPTED, NEGADA → REJECTED; 0 = only by the admin
 * call). No defense by the deadline → ACCEPTED. The admin may resolve any WAITING_PSP infraction to
 * ACCEPTED, REJECTED or CANCELLED. ACCEPTED refunds through the ledger (./infractions/resolve.ts).
 */
import { providerError } from '../http/errors';
import { requireCaller, type SandboxProduct } from './product';
import {
  analysisOfWord,
  deadlineJob,
  INFRACTION_DEADLINE_JOB,
  INFRACTION_RESOLVE_JOB,
  resolveJob,
} from './infractions/resolve';
import { infractionMigrations, infractionStore, infractionView } from './infractions/store';

import { infractionAdminRoutes } from './infractions/admin';
export { INFRACTION_DEFENSE_WINDOW_MS, MED_REFUNDS_ACCOUNT } from './infractions/resolve';

const iso = (ms: number): string => new Date(ms).toISOString();

export const infractionsProduct: SandboxProduct = {
  name: 'infractions',
  migrations: infractionMigrations,
  routes: {
    listInfractions: {
      handle({ ctx, user, input }) {
        const caller = requireCaller(user);
        const { page, perPage } = input;
        const { records, total } = infractionStore(ctx).pageForUser(caller.id, page, perPage);
        return {
          body: { data: records.map(infractionView), page, perPage, total, totalPages: Math.ceil(total / perPage) },
        };
      },
    },
    submitInfractionDefense: {
      handle({ ctx, user, input, params }) {
        const caller = requireCaller(user);
        const store = infractionStore(ctx);
        const defended = ctx.db.transaction(() => {
          const record = store.byIdForUser(caller.id, params.infractionId);
          if (!record) throw providerError('NOT_FOUND', `No infraction ${params.infractionId} for this client`);
          const refuse = (why: string) => providerError('INFRACTION_NOT_WAITING_PSP', `Infraction ${record.id} ${why}`);
          if (record.status !== 'WAITING_PSP')
            throw refuse(`is ${record.status}: a defense is accepted only while WAITING_PSP`);
          if (record.defendedAt !== null)
            throw refuse(`already has a defense (submitted ${iso(record.defendedAt)}) awaiting resolution`);
          const words = ctx.config.INFRACTION_ANALISE_VALUES;
          if (!analysisOfWord(words, input.analise)) {
            throw providerError('VALIDATION_FAILED', 'The request body is invalid', [
              { path: 'analise', message: `must be one of ${words.ACEITA}, ${words.NEGADA}` },
            ]);
          }
          const now = ctx.now();
          if (now > record.defenseDeadline)
            throw refuse(`is past its defense deadline (${iso(record.defenseDeadline)})`);
          store.recordDefense(record.id, {
            analise: input.analise,
            justificativa: input.justificativa,
            proofs: input.proofs ?? null,
            at: now,
          });
          // The deadline no longer applies; the defense is resolved after the configured delay.
          ctx.scheduler.cancelFor(record.id);
          if (ctx.config.SANDBOX_INFRACTION_RESOLVE_MS > 0)
            ctx.scheduler.schedule(INFRACTION_RESOLVE_JOB, record.id, now + ctx.config.SANDBOX_INFRACTION_RESOLVE_MS);
          const updated = store.byId(record.id);
          if (!updated) throw new Error(`infraction ${record.id} vanished`);
          return updated;
        })();
        ctx.logger.info('sandbox.infraction_defended', { infractionId: defended.id, analise: defended.analise });
        return { body: { message: 'Defense received', infraction: infractionView(defended) } };
      },
    },
  },
  jobs: { [INFRACTION_DEADLINE_JOB]: deadlineJob, [INFRACTION_RESOLVE_JOB]: resolveJob },
  adminRoutes: infractionAdminRoutes,
};
