import { Router } from 'express';
import type { Logger } from '../logging/logger';
import { addressRateLimit } from './rate-limit';

export type ReadinessCheck = () => Promise<void>;

// A probe that hangs is a failed probe: the orchestrator asking must get its answer promptly.
const CHECK_DEADLINE_MS = 5_000;
/**
 * /readyz is unauthenticated and each run asks Temporal and the provider: its answer is kept this long,
 * and every caller in the meantime (or while a run is under way) gets that answer.
 */
export const READINESS_CACHE_MS = 5_000;
/** Readiness requests a minute per client address: ten a second, above any prober's or start-up poller's pace. */
export const READINESS_PER_MINUTE = 600;

type Readiness = { status: 'ready' | 'not-ready'; checks: Record<string, 'ready' | 'not-ready'> };

function withinDeadline(check: ReadinessCheck): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_DEADLINE_MS} ms`)), CHECK_DEADLINE_MS);
  });
  return Promise.race([check(), timeout]).finally(() => clearTimeout(timer));
}

async function runChecks(checks: Record<string, ReadinessCheck>, logger: Logger): Promise<Readiness> {
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, 'ready' | 'not-ready']> => {
      try {
        await withinDeadline(check);
        return [name, 'ready'];
      } catch (error) {
        logger.warn('api.not_ready', { check: name, error });
        return [name, 'not-ready'];
      }
    }),
  );
  return {
    status: results.every(([, result]) => result === 'ready') ? 'ready' : 'not-ready',
    checks: Object.fromEntries(results),
  };
}

/** The last run's answer for READINESS_CACHE_MS after it ended; the run under way for whoever asks meanwhile. */
function cachedReadiness(checks: Record<string, ReadinessCheck>, logger: Logger): () => Promise<Readiness> {
  let last: { answer: Promise<Readiness>; until: number } | undefined;
  return () => {
    if (last && Date.now() < last.until) return last.answer;
    const answer = runChecks(checks, logger);
    const run = { answer, until: Number.POSITIVE_INFINITY };
    last = run;
    void answer.then(() => {
      run.until = Date.now() + READINESS_CACHE_MS;
    });
    return answer;
  };
}

/**
 * /healthz: the process answers. /readyz: every dependency answers, each reported only as ready or
 * not (the reason goes to the log, never to whoever asks); kept a few seconds and limited per client
 * address, since anyone may ask.
 */
export function healthRoutes(checks: Record<string, ReadinessCheck>, logger: Logger): Router {
  const router = Router();
  const readiness = cachedReadiness(checks, logger);
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get(
    '/readyz',
    addressRateLimit({ scope: 'readiness', perMinute: READINESS_PER_MINUTE, logger }),
    async (_req, res) => {
      const answer = await readiness();
      res.status(answer.status === 'ready' ? 200 : 503).json(answer);
    },
  );
  return router;
}
