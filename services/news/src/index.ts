import { Elysia } from 'elysia'
import { createResponseCache, createVersionSource } from '@app/kit'
import { articleRoutes } from './articles'
import type { NewsDeps } from './deps'

export { newsDepsFromConfig, type NewsDeps } from './deps'

/** Every news route: article list and detail. */
export const newsService = (given: NewsDeps) => {
  const deps = { ...given, cache: given.cache ?? createResponseCache({ versions: createVersionSource(given.database) }) }
  return new Elysia({ name: 'service.news' }).use(articleRoutes({ ...deps, database: given.readDatabase ?? given.database }))
}
