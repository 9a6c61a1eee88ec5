import { Elysia } from 'elysia'
import { authRoutes } from './auth'
import { warmUpLogin } from './auth/service'
import type { AdminDeps } from './deps'
import { moderationRoutes } from './events'
import { auditRoutes } from './audit'
import { newsRoutes } from './news'
import { settingsRoutes } from './settings'
import { taxonomyRoutes } from './taxonomy'
import { userRoutes } from './users'
import { webRoutes } from './web'

export { adminDepsFromConfig, type AdminDeps } from './deps'
export { bootstrapAdmin, createOrResetAdmin } from './users/service'

/** Every admin route: login, logout, me, moderation and the content API of the studio. */
export const adminService = (deps: AdminDeps) => {
  warmUpLogin()
  return new Elysia({ name: 'service.admin' })
    .use(authRoutes(deps))
    .use(moderationRoutes(deps))
    .use(newsRoutes(deps))
    .use(taxonomyRoutes(deps))
    .use(settingsRoutes(deps))
    .use(userRoutes(deps))
    .use(auditRoutes(deps))
    .use(webRoutes())
}
