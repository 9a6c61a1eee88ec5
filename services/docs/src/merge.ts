// Merges the OpenAPI documents of the services into one, for the gateway's /api/openapi.json.

export type OpenApiDocument = {
  openapi?: string
  info?: Record<string, unknown>
  tags?: { name: string; description?: string }[]
  paths?: Record<string, Record<string, unknown>>
  components?: { schemas?: Record<string, unknown>; [key: string]: unknown }
  [key: string]: unknown
}

// health and docs routes exist in every service; the merged document describes the public API
const INTERNAL_PATHS = new Set(['/health', '/ready'])

export function mergeDocuments(base: OpenApiDocument, parts: OpenApiDocument[]): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {}
  const schemas: Record<string, unknown> = { ...(base.components?.schemas ?? {}) }
  for (const part of parts) {
    for (const [path, operations] of Object.entries(part.paths ?? {})) {
      if (INTERNAL_PATHS.has(path)) continue
      paths[path] = { ...(paths[path] ?? {}), ...operations }
    }
    Object.assign(schemas, part.components?.schemas ?? {})
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)))
  // the services generate the same OpenAPI version; the merged document speaks it too
  const openapi = parts.find((p) => p.openapi)?.openapi ?? base.openapi
  return { ...base, openapi, paths: sorted, components: { ...(base.components ?? {}), schemas } }
}
