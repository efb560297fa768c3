/**
 * What an infraction needs of the engine's charges: which charge the infracted cash-in is (by the
 * provider's id of the PIX), and to tell that charge the claim was accepted (a refund of the amount).
 */
export interface AcceptedInfraction {
  infractionId: string;
  amountCents: number;
}

export interface ChargeRefunds {
  /** The externalId of the engine's charge paid by this provider transaction; null: not a charge of the engine. */
  findByProviderTransactionId(transactionId: string): Promise<string | null>;
  /** False when the charge can no longer hear it (closed): the infraction still shows the link. */
  recordAcceptedInfraction(chargeExternalId: string, infraction: AcceptedInfraction): Promise<boolean>;
}
