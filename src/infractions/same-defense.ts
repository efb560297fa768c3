import type { Defense } from './defense';

/** The same defense: the same analysis, justification and proofs, in order (what makes a second send a repeat). */
export function sameDefense(a: Defense, b: Defense): boolean {
  return (
    a.analise === b.analise &&
    a.justificativa === b.justificativa &&
    a.proofs.length === b.proofs.length &&
    a.proofs.every((proof, i) => proof === b.proofs[i])
  );
}

export const DIFFERENT_DEFENSE_SENT = 'a different defense was already sent for this infraction';
