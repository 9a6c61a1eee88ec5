// Helpers for tests that drive an app in-process with app.handle(new Request(...)).

export interface TestResponse<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

type Handler = { handle(request: Request): Promise<Response> }

export interface CallOptions {
  body?: unknown
  /** Sent as is (string/FormData/Blob) instead of JSON. */
  rawBody?: RequestInit['body']
  headers?: Record<string, string>
}

/** Calls the app in-process; JSON bodies are parsed when the response is JSON. */
export async function call<T = any>(
  app: Handler,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<TestResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
  let body: RequestInit['body'] | undefined = options.rawBody
  if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    headers['content-type'] ??= 'application/json'
  }
  // a host of 4+ characters: Elysia answers 404 to shorter ones
  const response = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }))
  const text = await response.text()
  let parsed: unknown = text
  if (response.headers.get('content-type')?.includes('json')) {
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = text
    }
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text }
}

export const get = <T = any>(app: Handler, path: string, options?: CallOptions) => call<T>(app, 'GET', path, options)
export const post = <T = any>(app: Handler, path: string, body?: unknown, options?: CallOptions) =>
  call<T>(app, 'POST', path, { ...options, body })

/** Asserts the `{success: false, error}` envelope shape and returns the message. */
export function envelopeMessage(response: TestResponse): string {
  const body = response.body
  if (typeof body !== 'object' || body === null || body.success !== false || typeof body.error !== 'string' || !body.error)
    throw new Error(`not an error envelope (${response.status}): ${response.text.slice(0, 300)}`)
  return body.error
}
