/**
 * The sandbox's callbacks held `delayMs` after their withdrawal settles (its `callbacks.delayMs` fault), so that a
 * phase's callbacks arrive past the payout's first workflow task, as a real provider's do; `clear` ends it for the
 * phases after. The engine's phase and the minimal payout's get the same delay this way.
 */
export interface CallbackDelay {
  clear(): Promise<void>;
}

async function faults(sandboxUrl: string, adminToken: string, method: 'PUT' | 'DELETE', body?: unknown): Promise<void> {
  const response = await fetch(`${sandboxUrl}/sandbox/faults`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`the sandbox answered ${response.status} to ${method} /sandbox/faults`);
}

/** Each callback `delayMs` late, and up to `jitterMs` more at random (a real provider's callbacks do not come in step). */
export async function delayCallbacks(
  sandboxUrl: string,
  adminToken: string,
  delayMs: number,
  jitterMs = 0,
): Promise<CallbackDelay> {
  await faults(sandboxUrl, adminToken, 'PUT', { callbacks: { delayMs, delayJitterMs: jitterMs } });
  return { clear: () => faults(sandboxUrl, adminToken, 'DELETE') };
}
