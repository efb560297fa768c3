/** What the workflow tests expect a workflow to announce to the merchant through its provider's `announce`. */

/**
 * The event a workflow announces on its view's transition `seq`: of `type`, from the workflow `sourceId`, occurring
 * when that transition did, its data about the `object` of the view's externalId.
 */
export function announcementOf(
  object: string,
  sourceId: string,
  view: { externalId: string; transitions: readonly { at: string }[] },
  seq: number,
  type: string,
  data: Record<string, unknown>,
) {
  return {
    sourceId,
    seq,
    type,
    occurredAt: view.transitions[seq]?.at,
    data: { object, externalId: view.externalId, ...data },
  };
}
