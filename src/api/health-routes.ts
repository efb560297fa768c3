import { Router } from 'express';

export type ReadinessCheck = () => Promise<void>;
type CheckResult = { ok: true } | { ok: false; error: string };

/** /healthz: the process answers. /readyz: every dependency answers (503 naming the ones that do not). */
export function healthRoutes(checks: Record<string, ReadinessCheck>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]): Promise<[string, CheckResult]> => {
        try {
          await check();
          return [name, { ok: true }];
        } catch (error) {
          return [name, { ok: false, error: error instanceof Error ? error.message : String(error) }];
        }
      }),
    );
    const ready = results.every(([, result]) => result.ok);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not-ready', checks: Object.fromEntries(results) });
  });
  return router;
}
