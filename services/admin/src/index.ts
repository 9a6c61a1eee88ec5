import { Elysia } from 'elysia'
import type { AdminDeps } from './deps'

export { adminDepsFromConfig, type AdminDeps } from './deps'

export const adminService = (deps: AdminDeps) => new Elysia({ name: 'service.admin' })
export { bootstrapAdmin, createOrResetAdmin } from './users/service'
