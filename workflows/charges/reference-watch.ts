/**
 * The provider references a re-created charge watches (src/charges/provider-reference.ts): a creation whose
 * answer was lost may have made a charge the payer can still pay, so every reference the charge was created
 * under is asked until it is paid or closed at the provider, or the charge's late-payment window ends. The
 * first payment settles the order; any other is a second payment, to be refunded by hand. Pure state.
 */
import type { ActivityProblem } from '../../src/contracts/activity-problem';
import type { SecondPayment } from '../../src/contracts/charge';

export type ReferenceState = 'open' | 'paid' | 'closed';

export class ReferenceWatch {
  private readonly states = new Map<string, ReferenceState>();
  /** The reference whose payment settled the order. */
  paidBy: string | undefined;
  readonly secondPayments: SecondPayment[] = [];

  /** `references` oldest first; the last is the one the merchant's code belongs to. */
  constructor(readonly references: readonly string[]) {
    for (const reference of references) this.states.set(reference, 'open');
  }

  /** Still worth asking: neither paid nor closed at the provider. */
  open(): string[] {
    return this.references.filter((reference) => this.states.get(reference) === 'open');
  }

  closed(reference: string): void {
    this.states.set(reference, 'closed');
  }

  /** 'first' when this payment settles the order, 'second' when another reference paid it already. */
  paid(reference: string, providerTransactionId: string, at: string): 'first' | 'second' {
    this.states.set(reference, 'paid');
    if (this.paidBy === undefined || this.paidBy === reference) {
      this.paidBy = reference;
      return 'first';
    }
    this.secondPayments.push({ reference, providerTransactionId, at });
    return 'second';
  }

  /** What an operator must do, naming every reference paid: `paidProviderId` is the provider's id of the payment that settled the order. */
  secondPaymentProblem(paidProviderId: string): ActivityProblem {
    const seconds = this.secondPayments
      .map((second) => `${second.reference} (provider id ${second.providerTransactionId})`)
      .join(', ');
    return {
      activity: 'checkCharge',
      message: `paid twice: ${this.paidBy ?? ''} (provider id ${paidProviderId}) settled the order; ${seconds} was paid too and must be refunded to its payer`,
      since: this.secondPayments[0]?.at ?? '',
    };
  }
}
