/** A time the engine answers: an RFC 3339 instant (toISOString), documented as `format: date-time`. */
import { z } from 'zod';

export const timestampSchema = z.string().meta({ format: 'date-time' });
