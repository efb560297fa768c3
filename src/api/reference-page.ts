/**
 * GET /docs: the API reference page, rendered from the engine's OpenAPI document at build time (npm run build:docs,
 * tools/docs/reference-page.ts) into build/docs/index.html: one file, its script inlined, nothing fetched elsewhere.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { Router } from 'express';
import { ApiError } from './errors';

export const REFERENCE_PAGE = path.join(__dirname, '..', '..', 'build', 'docs', 'index.html');

export function referencePageRoutes(): Router {
  const router = Router();
  router.get('/docs', (_req, res, next) => {
    if (!existsSync(REFERENCE_PAGE)) {
      next(
        new ApiError(
          404,
          'NOT_FOUND',
          'The reference page is not built: npm run build:docs (npm start builds it); the document itself is at /openapi.json',
        ),
      );
      return;
    }
    res.sendFile(REFERENCE_PAGE);
  });
  return router;
}
