// deploy/k8s without a cluster: `kubectl kustomize` builds the base and both overlays, and every
// object validates against the Kubernetes OpenAPI schema (kubernetes-models: models and JSON
// schemas generated from the Kubernetes OpenAPI spec, validated with ajv).
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from './helpers'

type K8sObject = { apiVersion: string; kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> }

function build(dir: string): K8sObject[] {
  const result = Bun.spawnSync(['kubectl', 'kustomize', join(repoRoot, 'deploy/k8s', dir)], { env: { PATH: process.env.PATH ?? '', HOME: '/tmp' } })
  if (!result.success) throw new Error(result.stderr.toString())
  return result.stdout
    .toString()
    .split(/^---$/m)
    .filter((doc) => doc.trim())
    .map((doc) => Bun.YAML.parse(doc) as K8sObject)
}

async function validate(object: K8sObject): Promise<void> {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : [undefined, object.apiVersion]
  const module = await import(`kubernetes-models/${group ? `${group}/` : ''}${version}/${object.kind}`)
  const Model = module[object.kind] ?? module.default
  new Model(object).validate()
}

const builds = { base: build('base'), local: build('overlays/local'), production: build('overlays/production') }
const find = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!
const apiServices = ['catalog', 'news', 'media', 'admin', 'docs']

describe('kustomize builds', () => {
  for (const [name, objects] of Object.entries(builds))
    test(`${name}: every object validates against the Kubernetes schema`, async () => {
      expect(objects.length).toBeGreaterThan(20)
      for (const object of objects) await validate(object)
    })

  test('the validator does reject a wrong object', async () => {
    const deployment = structuredClone(find(builds.base, 'Deployment', 'catalog'))
    deployment.spec.replicas = 'three'
    await expect(validate(deployment)).rejects.toThrow()
    const probe = structuredClone(find(builds.base, 'Deployment', 'catalog'))
    delete probe.spec.template.spec.containers[0].readinessProbe.httpGet.port
    await expect(validate(probe)).rejects.toThrow()
  })
})

describe('base', () => {
  test('each API service: Deployment + Service + PDB, probes on /ready and /health, limits, read-only root, drain', () => {
    for (const name of apiServices) {
      const pod = find(builds.base, 'Deployment', name).spec.template.spec
      const container = pod.containers[0]
      expect(container.readinessProbe.httpGet.path).toBe('/ready')
      expect(container.livenessProbe.httpGet.path).toBe('/health')
      expect(container.resources.requests.memory).toBeDefined()
      expect(container.resources.limits.memory).toBeDefined()
      expect(container.securityContext.readOnlyRootFilesystem).toBe(true)
      expect(pod.securityContext.runAsNonRoot).toBe(true)
      expect(pod.volumes.some((v: any) => v.name === 'tmp' && v.emptyDir)).toBe(true)
      // the listener stays open SHUTDOWN_DELAY_MS after SIGTERM; the grace period covers it and the in-flight work
      const delayMs = Number(container.env.find((e: any) => e.name === 'SHUTDOWN_DELAY_MS').value)
      expect(delayMs).toBeGreaterThan(container.readinessProbe.periodSeconds * container.readinessProbe.failureThreshold * 1000)
      expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(delayMs + 20_000)
      expect(find(builds.base, 'Service', name)).toBeDefined()
      expect(find(builds.base, 'PodDisruptionBudget', name)).toBeDefined()
    }
  })

  test('secrets are referenced, never inlined', () => {
    expect(builds.base.filter((o) => o.kind === 'Secret')).toEqual([])
    const env = find(builds.base, 'Deployment', 'catalog').spec.template.spec.containers[0].env
    expect(env.find((e: any) => e.name === 'DATABASE_URL').valueFrom.secretKeyRef.name).toBe('event-catalog-database')
    expect(JSON.stringify(builds.production)).not.toMatch(/password\s*[:=]\s*\w/i)
  })

  test('media and catalog autoscale on CPU', () => {
    for (const name of ['media', 'catalog']) {
      const hpa = find(builds.base, 'HorizontalPodAutoscaler', name)
      expect(hpa.spec.scaleTargetRef.name).toBe(name)
      expect(hpa.spec.metrics[0].resource.name).toBe('cpu')
    }
  })

  test("the gateway runs the repository's own Caddyfile", () => {
    const config = builds.base.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('gateway-caddyfile'))!
    expect(config.data!.Caddyfile).toBe(readFileSync(join(repoRoot, 'caddy/Caddyfile'), 'utf8'))
    expect(config.data!['dynamic.caddy']).toBe(readFileSync(join(repoRoot, 'caddy/upstreams/dynamic.caddy'), 'utf8'))
  })
})

describe('overlays', () => {
  test('local: single replicas', () => {
    for (const object of builds.local.filter((o) => o.kind === 'Deployment')) expect(object.spec.replicas).toBe(1)
    for (const object of builds.local.filter((o) => o.kind === 'HorizontalPodAutoscaler')) expect(object.spec.maxReplicas).toBe(1)
  })

  test('production: replicas, anti-affinity, migration Job + advisory-locked init containers, distributed MinIO', () => {
    for (const name of apiServices) {
      const deployment = find(builds.production, 'Deployment', name)
      expect(deployment.spec.replicas).toBeGreaterThan(1)
      expect(deployment.spec.template.spec.affinity.podAntiAffinity).toBeDefined()
      if (name !== 'docs') expect(deployment.spec.template.spec.initContainers[0].command.join(' ')).toContain('migrate.ts')
    }
    expect(find(builds.production, 'Job', 'migrate').spec.template.spec.containers[0].command.join(' ')).toContain('migrate.ts')
    const minio = find(builds.production, 'StatefulSet', 'minio')
    expect(minio.spec.replicas).toBeGreaterThanOrEqual(4)
    expect(minio.spec.template.spec.containers[0].args.join(' ')).toContain('{0...3}')
  })
})

describe('deploy/observability', () => {
  const dashboard = JSON.parse(readFileSync(join(repoRoot, 'deploy/observability/grafana-dashboard.json'), 'utf8'))
  const rulesFile = join(repoRoot, 'deploy/observability/alerts.yaml')
  const exprs = [
    ...dashboard.panels.flatMap((p: any) => p.targets.map((t: any) => t.expr as string)),
    ...(Bun.YAML.parse(readFileSync(rulesFile, 'utf8')) as any).groups.flatMap((g: any) => g.rules.map((r: any) => r.expr as string)),
  ]
  // names served by shared/kit/src/metrics.ts (prom-client), or by kube-state-metrics / postgres_exporter
  const ours = /^(http_requests_total|http_request_duration_seconds_bucket|upload_bytes_total|process_resident_memory_bytes|nodejs_eventloop_lag_p99_seconds|response_cache_(hits|misses|invalidations)_total|response_cache_bytes|db_pool_(in_use|waiting))$/
  const external = /^(kube_|pg_)/

  test('the dashboard is Grafana JSON whose panels all query a known metric', () => {
    expect(dashboard.uid).toBe('event-catalog')
    expect(dashboard.panels.length).toBeGreaterThan(5)
    for (const raw of exprs) {
      const expr = raw.replace(/\b(by|without) \([^)]*\)/g, '')
      const names = [...expr.matchAll(/\b([a-z0-9_]+)\{/g), ...expr.matchAll(/\(\s*([a-z0-9_]+)\s*\)/g)].map((m) => m[1]!)
      expect(`${names.length > 0} ${expr}`).toStartWith("true")
      for (const name of names) expect(`${name}: ${ours.test(name) || external.test(name)}`).toBe(`${name}: true`)
    }
  })

  test('promtool accepts the alert rules (error rate, p99, readiness, replica lag)', () => {
    const result = Bun.spawnSync(['promtool', 'check', 'rules', rulesFile])
    expect(result.stdout.toString() + result.stderr.toString()).toContain('SUCCESS: 6 rules found')
    const alerts = (Bun.YAML.parse(readFileSync(rulesFile, 'utf8')) as any).groups[0].rules.map((r: any) => r.alert)
    for (const name of ['EventCatalogHighErrorRate', 'EventCatalogSlowP99', 'EventCatalogNotReady', 'EventCatalogReplicaLagging'])
      expect(alerts).toContain(name)
  })
})
