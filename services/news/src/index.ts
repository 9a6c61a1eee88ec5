import { Elysia } from 'elysia'
import type { NewsDeps } from './deps'

export { newsDepsFromConfig, type NewsDeps } from './deps'

export const newsService = (deps: NewsDeps) => new Elysia({ name: 'service.news' })
