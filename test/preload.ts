// Loaded once before every test file (bunfig.toml [test].preload).
import { afterAll } from 'bun:test'
import { disposeTestDatabases } from '@app/db/testing'

afterAll(async () => {
  await disposeTestDatabases()
})
