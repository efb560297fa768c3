import { Router } from 'express';

export type ReadinessCheck = () => Promise<void>;

// A probe that hangs is a failed probe: the orchestrator asking must get its answer promptly.
const CHECK_DEADLINE_MS = 5_000;

function withinDeadline(check: ReadinessCheck): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_DEADLINE_MS} ms`)), CHECK_DEADLINE_MS);
  });
  return Promise.race([check(), timeout]).finally(() => clearTimeout(timer));
}

/**
 * /healthz: the process answers. /readyz: every dependency answers, each reported only as ready or
 * not (the reason goes to the log, never to whoever asks).
 */
export function healthRoutes(checks: Record<string, ReadinessCheck>, onCheckFailed: (name: string, error: unknown) => void): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]): Promise<[string, 'ready' | 'not-ready']> => {
        try {
          await withinDeadline(check);
          return [name, 'ready'];
        } catch (error) {
          onCheckFailed(name, error);
          return [name, 'not-ready'];
        }
      }),
    );
    const ready = results.every(([, result]) => result === 'ready');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not-ready', checks: Object.fromEntries(results) });
  });
  return router;
}
