// compose.yaml and the Caddyfile checked without a Docker engine: the compose file through
// docker-compose's own validation and its parsed structure, the Caddyfile through `caddy validate`.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { validate as lintDockerfile } from 'dockerfile-utils'
import { repoRoot } from './helpers'

const secrets = { POSTGRES_PASSWORD: 'pw-for-validation', MINIO_ROOT_USER: 'minio-user', MINIO_ROOT_PASSWORD: 'minio-password' }

// caddy and docker-compose write under $HOME
const home = mkdtempSync(join(tmpdir(), 'cfg-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

function run(cmd: string[], env: Record<string, string> = {}) {
  const result = Bun.spawnSync(cmd, { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', HOME: home, ...env } })
  return { ok: result.success, output: result.stdout.toString() + result.stderr.toString() }
}

const compose = Bun.YAML.parse(await Bun.file(join(repoRoot, 'compose.yaml')).text()) as any
const appServices = ['catalog', 'news', 'media', 'admin', 'docs']

describe('compose.yaml', () => {
  test('docker-compose validates it, and refuses to run without the secrets', () => {
    const valid = run(['docker-compose', '-f', 'compose.yaml', 'config', '-q'], secrets)
    expect(valid.output).toBe('')
    expect(valid.ok).toBe(true)
    const missing = run(['docker-compose', '-f', 'compose.yaml', 'config', '-q'])
    expect(missing.ok).toBe(false)
    expect(missing.output).toContain('POSTGRES_PASSWORD')
  })

  test('caddy is the only published port', () => {
    const published = Object.entries(compose.services)
      .filter(([, s]: [string, any]) => s.ports)
      .map(([name]) => name)
    expect(published).toEqual(['caddy'])
  })

  test('postgres and minio keep data in volumes and have health checks', () => {
    for (const name of ['postgres', 'minio']) {
      const s = compose.services[name]
      expect(s.volumes?.length).toBeGreaterThan(0)
      expect(s.healthcheck?.test).toBeDefined()
    }
  })

  test('one-shot jobs: bucket setup (public read for uploads only) and migration the services wait on', () => {
    const setup = compose.services['minio-setup']
    expect(setup.restart).toBe('no')
    expect(setup.command.join(' ')).toContain('anonymous set download local/uploads/uploads')
    const migrate = compose.services.migrate
    expect(migrate.restart).toBe('no')
    expect(migrate.depends_on.postgres.condition).toBe('service_healthy')
    for (const name of ['catalog', 'news', 'media', 'admin'])
      expect(compose.services[name].depends_on.migrate.condition).toBe('service_completed_successfully')
  })

  test('services: one build target each, read-only root, health checks, restart policies; media can be scaled', () => {
    for (const name of appServices) {
      const s = compose.services[name]
      expect(s.build).toEqual({ context: '.', target: name })
      expect(s.read_only).toBe(true)
      expect(s.tmpfs).toContain('/tmp')
      expect(s.healthcheck.test.join(' ')).toContain('/ready')
      expect(s.restart).toBe('unless-stopped')
      expect(s.command.join(' ')).toContain(`services/${name}/src/main.ts`)
    }
    // --scale needs no fixed name and no host port
    expect(compose.services.media.container_name).toBeUndefined()
    expect(compose.services.media.ports).toBeUndefined()
    expect(compose.services.caddy.environment.UPSTREAMS_MODE).toBe('dynamic')
  })

  test('no secret has a default value', () => {
    const text = JSON.stringify(compose)
    for (const name of ['POSTGRES_PASSWORD', 'MINIO_ROOT_PASSWORD', 'MINIO_ROOT_USER'])
      for (const match of text.matchAll(new RegExp(`\\$\\{${name}([^}]*)\\}`, 'g'))) expect(match[1]).toStartWith(':?')
  })

  test('the Dockerfile passes the linter (dockerfile-utils) and the hadolint rules that apply to it', async () => {
    const dockerfile = await Bun.file(join(repoRoot, 'Dockerfile')).text()
    expect(lintDockerfile(dockerfile)).toEqual([])
    // the linter itself does reject a broken file
    expect(lintDockerfile('FROM oven/bun:1-slim\nHEALTHCHECK --bogus=1 CMD true\n').length).toBeGreaterThan(0)
    const instructions = dockerfile.replace(/\\\n/g, ' ').split('\n').filter((l) => /^[A-Z]/.test(l))
    // DL3007: no :latest base image; DL3006: every FROM names a tag or an earlier stage
    const stages = new Set<string>()
    for (const from of instructions.filter((l) => l.startsWith('FROM '))) {
      const [, image, , stage] = from.split(/\s+/)
      expect(image!.endsWith(':latest')).toBe(false)
      expect(image!.includes(':') || stages.has(image!)).toBe(true)
      if (stage) stages.add(stage)
    }
    // DL3025: CMD/ENTRYPOINT in JSON form (signals reach bun, which drains on SIGTERM)
    for (const cmd of instructions.filter((l) => /^(CMD|ENTRYPOINT) /.test(l))) expect(cmd).toMatch(/^(CMD|ENTRYPOINT) \[/)
    // DL3002: the last USER is not root; a HEALTHCHECK exists; production dependencies only
    expect(instructions.some((l) => l.startsWith('HEALTHCHECK --'))).toBe(true)
    expect(dockerfile).toContain('bun install --frozen-lockfile --production')
    // one target per service, each starting that service
    for (const name of appServices) expect(dockerfile).toMatch(new RegExp(`^FROM runtime AS ${name}\\nCMD \\["bun", "run", "services/${name}/src/main.ts"\\]`, 'm'))
  })

  test('the Dockerfile builds on the official Bun image and runs as a non-root user', async () => {
    const dockerfile = await Bun.file(join(repoRoot, 'Dockerfile')).text()
    expect(dockerfile).toMatch(/^FROM oven\/bun:/m)
    const user = [...dockerfile.matchAll(/^USER (\S+)/gm)].at(-1)?.[1]
    expect(user).toBeDefined()
    expect(['root', '0']).not.toContain(user!)
  })
})

describe('Caddyfile', () => {
  for (const mode of ['dynamic', 'static'])
    test(`caddy validate accepts it in ${mode} mode`, () => {
      const result = run(['caddy', 'validate', '--config', 'caddy/Caddyfile', '--adapter', 'caddyfile'], { UPSTREAMS_MODE: mode })
      expect(result.output).toContain('Valid configuration')
      expect(result.ok).toBe(true)
    })
})
