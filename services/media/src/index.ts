import { Elysia } from 'elysia'
import { checkFileRoutes } from './check-file'
import type { MediaDeps } from './deps'
import { fileRoutes } from './files'
import { uploadRoutes } from './upload'

export { mediaDepsFromConfig, storageFromConfig, type MediaDeps } from './deps'
export type { Storage } from './storage'

/** Every media route: upload, check-file, and the stored files at the path of PUBLIC_MEDIA_URL. */
export const mediaService = (deps: MediaDeps) =>
  new Elysia({ name: 'service.media' }).use(uploadRoutes(deps)).use(checkFileRoutes(deps)).use(fileRoutes(deps))
