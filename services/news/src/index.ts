import { Elysia } from 'elysia'
import { articleRoutes } from './articles'
import type { NewsDeps } from './deps'

export { newsDepsFromConfig, type NewsDeps } from './deps'

/** Every news route: article list and detail. */
export const newsService = (deps: NewsDeps) => new Elysia({ name: 'service.news' }).use(articleRoutes(deps))
