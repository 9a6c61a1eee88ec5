// The 17 endpoints of the contract (../shared/seed/000_0268782438511bb7.txt), as OpenAPI paths.
export const CONTRACT_ENDPOINTS: [method: string, path: string][] = [
  ['get', '/api/events'],
  ['get', '/api/events/{slug}'],
  ['post', '/api/events/submit'],
  ['get', '/api/categories'],
  ['get', '/api/categories/{slug}'],
  ['get', '/api/cities'],
  ['get', '/api/cities/{slug}'],
  ['get', '/api/tags'],
  ['get', '/api/news'],
  ['get', '/api/news/{slug}'],
  ['post', '/api/upload'],
  ['get', '/api/check-file'],
  ['get', '/api/stats'],
  ['get', '/api/settings'],
  ['post', '/api/admin/login'],
  ['get', '/api/admin/events'],
  ['post', '/api/admin/events/{id}/approve'],
]

/** Our additions, documented alongside. */
export const ADDED_ENDPOINTS: [string, string][] = [
  ['post', '/api/admin/events/{id}/reject'],
  ['post', '/api/admin/logout'],
  ['get', '/api/admin/me'],
  ['get', '/api/events.ics'],
]
