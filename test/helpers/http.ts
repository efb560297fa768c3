/** The one HTTP call every test harness makes: JSON in and out, the answer's status, body and headers. */
export interface HttpAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface HttpInit {
  method?: string;
  /** Sent as JSON (a string is sent as it is). */
  body?: unknown;
  /** Sent byte for byte, e.g. a payload whose signature covers its exact bytes. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export async function httpCall<T>(url: string, init: HttpInit = {}): Promise<HttpAnswer<T>> {
  const hasBody = init.body !== undefined || init.rawBody !== undefined;
  const body =
    init.rawBody ??
    (init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body));
  const response = await fetch(url, {
    method: init.method ?? (hasBody ? 'POST' : 'GET'),
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...init.headers },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}
