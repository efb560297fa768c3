/**
 * The Temporal SDK's protobuf messages are reflected types (protobufjs): each one generates its encoder and decoder
 * the first time a message of it is encoded or decoded. A process's first workflow call or task pays that for every
 * type it meets (issue 41, item 6: a third of the API's and of the worker's part of the first charge). Set up ahead,
 * at start, the first request finds them built.
 */

/** What the reflected type of a message offers (protobufjs's Type); checked, not assumed, since the SDK types them as classes. */
interface ReflectedType {
  setup(): unknown;
  fieldsArray: { resolve(): { resolvedType: unknown } }[];
}

function isReflectedType(value: unknown): value is ReflectedType {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<ReflectedType>).setup === 'function' &&
    Array.isArray((value as Partial<ReflectedType>).fieldsArray)
  );
}

/**
 * Sets up each message type and every type its fields reach; yields to the event loop between types, so that a
 * process answering health probes meanwhile keeps answering. Resolves to how many types it set up.
 */
export async function setUpMessageTypes(roots: readonly unknown[]): Promise<number> {
  const seen = new Set<ReflectedType>();
  const pending = roots.filter(isReflectedType);
  for (let type = pending.pop(); type !== undefined; type = pending.pop()) {
    if (seen.has(type)) continue;
    seen.add(type);
    type.setup();
    for (const field of type.fieldsArray) {
      const reached = field.resolve().resolvedType;
      if (isReflectedType(reached) && !seen.has(reached)) pending.push(reached);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return seen.size;
}
