import { Elysia } from 'elysia'
import type { MediaDeps } from './deps'

export { mediaDepsFromConfig, type MediaDeps } from './deps'

export const mediaService = (deps: MediaDeps) => new Elysia({ name: 'service.media' })
