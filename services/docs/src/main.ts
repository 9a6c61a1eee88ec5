// The gateway's docs process: merges the services' OpenAPI documents. No database.
import { createLifecycle, createTracing, createLogger, readConfigOrExit, serve } from '@app/kit'
import { createApp } from './app'
import { docsDepsFromConfig } from './deps'

const config = readConfigOrExit()
const logger = createLogger(config.logLevel, 'docs')
const tracing = await createTracing({ endpoint: config.otlpEndpoint, service: 'docs', sampleRatio: config.traceSampleRatio })
const lifecycle = createLifecycle()
const app = createApp({ ...(await docsDepsFromConfig(config)), logger, lifecycle, corsOrigins: config.corsOrigins, tracing })
serve(app, {
  port: config.port,
  service: 'docs',
  logger,
  lifecycle,
  shutdownDelayMs: config.shutdownDelayMs,
  onClose: async () => {
    await tracing?.shutdown()
  },
})
