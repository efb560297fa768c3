/**
 * An infraction record the engine could not read, as it is kept and shown: pure and free of zod (the
 * infraction workflow imports it). Only the record's field NAMES, never its values, which may be personal data.
 */
export interface UnreadableInfraction {
  /** When the id itself could be read. */
  infractionId?: string;
  /** The record's own field names (bounded), never their values. */
  fields: string[];
  /** The engine's fields that could not be read (MED_RECORD_FIELDS names them). */
  missing: string[];
}

/** What an operator reads of a record the engine could not read. */
export function unreadableProblem(unreadable: UnreadableInfraction): string {
  return `the provider's infraction record could not be read (no ${unreadable.missing.join(', ')}); its fields: ${unreadable.fields.join(', ') || 'none'}. MED_RECORD_FIELDS names the provider's fields`;
}
