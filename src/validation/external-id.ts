/** Merchant-chosen ids end up in workflow ids and URLs: keep them printable and bounded. */
import { z } from 'zod';

export const externalIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/,
    'must be 1-64 characters: letters, digits, dot, dash, underscore, colon; starting with a letter or digit',
  );
