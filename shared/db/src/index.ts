export * from './schema'
export * from './client'
export { migrateDb, migrationsFolder } from './migrate'
export { freeSlug, slugify, slugifyOr, type Writer } from './slug'
export { existingTags, tagIdsFor } from './tags'
export { seedDemo, isEmptyCatalogue } from './seed'
export {
  textSearch,
  searchWords,
  searchKey,
  MAX_QUERY_LENGTH,
  eventSearchQuery,
  searchExpansions,
  wordTerms,
  type EventSearch,
  type WordTerms,
  eventSearchMatch,
  prefixSearchQuery,
  type WordExpander,
} from './search'
export * from './sql-helpers'
export { nextArticlePublication } from './schedule'
export { findSlugRedirect } from './slug-history'
