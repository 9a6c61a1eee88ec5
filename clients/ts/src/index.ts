// The typed client: openapi-fetch over the generated types. Paths, parameters, bodies and
// answers are all checked by TypeScript against the API's OpenAPI document.
import createFetchClient, { type ClientOptions } from 'openapi-fetch'
import type { components, operations, paths } from './schema'

export type { components, operations, paths }
export type Schemas = components['schemas']

/**
 * A client for the API at `baseUrl` (e.g. `https://api.contoh.id`). In a browser on another
 * origin the admin calls need `credentials: 'include'` (and the origin in CORS_ORIGINS).
 */
export function createClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}) {
  return createFetchClient<paths>({ ...options, baseUrl })
}
export type Client = ReturnType<typeof createClient>
