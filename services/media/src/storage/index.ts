export * from './types'
export * from './keys'
export { createDiskStorage } from './disk'
export { createS3Storage, DEFAULT_S3_TIMEOUTS, type S3Timeouts } from './s3'
