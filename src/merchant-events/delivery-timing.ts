/** How a merchant event's delivery retries an endpoint (the MERCHANT_WEBHOOK_RETRY_* settings). */
export interface DeliveryTiming {
  /** The wait after the first failed attempt; each next wait doubles, up to maximumIntervalMs. */
  initialIntervalMs: number;
  maximumIntervalMs: number;
  /** From the first attempt: past this, an endpoint that never answered 2xx is FAILED. */
  retryForMs: number;
}
