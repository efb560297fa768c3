/**
 * The provider's crypto fees as the engine API reads them to quote and to refuse an amount out of
 * bounds before anything starts: cached for a few seconds, so a burst of requests costs one call. The
 * workflow never uses this reading: it reads the fees afresh when it submits.
 */
import type { CryptoFeesResponse } from '../../../payment-api/schemas/crypto';
import type { PayoutPaymentApi } from '../rail-provider';

export class CryptoFeeReader {
  private cached: { fees: Promise<CryptoFeesResponse>; until: number } | undefined;

  constructor(
    private readonly api: Pick<PayoutPaymentApi, 'getCryptoFees'>,
    private readonly ttlMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  read(): Promise<CryptoFeesResponse> {
    if (this.cached && this.cached.until > this.now()) return this.cached.fees;
    const fees = this.api.getCryptoFees();
    this.cached = { fees, until: this.now() + this.ttlMs };
    // A failed reading is not kept: the next request asks again.
    fees.catch(() => {
      this.cached = undefined;
    });
    return fees;
  }
}
