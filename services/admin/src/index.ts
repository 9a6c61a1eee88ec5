import { Elysia } from 'elysia'
import { authRoutes } from './auth'
import { warmUpLogin } from './auth/service'
import type { AdminDeps } from './deps'
import { moderationRoutes } from './events'

export { adminDepsFromConfig, type AdminDeps } from './deps'
export { bootstrapAdmin, createOrResetAdmin } from './users/service'

/** Every admin route: login, logout, me, the moderation list, approve and reject. */
export const adminService = (deps: AdminDeps) => {
  warmUpLogin()
  return new Elysia({ name: 'service.admin' }).use(authRoutes(deps)).use(moderationRoutes(deps))
}
