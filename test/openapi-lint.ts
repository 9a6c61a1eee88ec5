// Runs the two standard OpenAPI linters on a document: redocly (recommended rules) and Spectral
// (spectral:oas), under Bun (no Node.js needed), and checks what the linters do not: every
// operation complete (operationId, summary, security, error envelopes, examples).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from './helpers'

export interface LintProblem {
  tool: 'redocly' | 'spectral' | 'completeness'
  rule: string
  message: string
  where: string
}

async function run(args: string[]): Promise<string> {
  const proc = Bun.spawn(['bun', '--bun', ...args], { cwd: repoRoot, stdout: 'pipe', stderr: 'ignore' })
  const timer = setTimeout(() => proc.kill('SIGKILL'), 120_000)
  const out = await new Response(proc.stdout).text()
  await proc.exited
  clearTimeout(timer)
  return out
}

/** Errors (not warnings) of redocly lint --extends=recommended and spectral lint -r spectral:oas. */
export async function lintErrors(document: unknown): Promise<LintProblem[]> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'))
  try {
    const file = join(dir, 'openapi.json')
    writeFileSync(file, JSON.stringify(document))
    writeFileSync(join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n')
    const [redocly, spectral] = await Promise.all([
      run(['node_modules/.bin/redocly', 'lint', '--extends=recommended', '--format=json', file]),
      run(['node_modules/.bin/spectral', 'lint', '-r', join(dir, '.spectral.yaml'), '-f', 'json', '--quiet', file]),
    ])
    const problems: LintProblem[] = []
    const r = JSON.parse(redocly.slice(redocly.indexOf('{')))
    for (const p of r.problems ?? [])
      if (p.severity === 'error')
        problems.push({ tool: 'redocly', rule: p.ruleId, message: p.message, where: p.location?.[0]?.pointer ?? '' })
    const s = JSON.parse(spectral.slice(spectral.indexOf('[')))
    for (const p of s)
      if (p.severity === 0) problems.push({ tool: 'spectral', rule: p.code, message: p.message, where: (p.path ?? []).join('.') })
    return problems
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** What the issue asks of every operation, beyond what the linters check. */
export function completenessProblems(document: any): LintProblem[] {
  const problems: LintProblem[] = []
  const add = (rule: string, where: string, message = rule) => problems.push({ tool: 'completeness', rule, message, where })
  if (!document.servers?.length) add('servers', '#/servers')
  const scheme = document.components?.securitySchemes?.admin_session
  if (scheme?.type !== 'apiKey' || scheme?.in !== 'cookie') add('admin_session scheme', '#/components/securitySchemes')
  for (const [path, item] of Object.entries<any>(document.paths ?? {}))
    for (const [method, op] of Object.entries<any>(item)) {
      const where = `${method.toUpperCase()} ${path}`
      if (!op.operationId) add('operationId', where)
      if (!op.summary) add('summary', where)
      const admin = path.startsWith('/api/admin/') && path !== '/api/admin/login'
      const secured = JSON.stringify(op.security ?? null) === JSON.stringify([{ admin_session: [] }])
      if (admin !== secured)
        add('security', where, admin ? 'admin operation without admin_session' : 'public operation with security')
      const statuses = Object.keys(op.responses ?? {})
      const need = [
        ...(op.parameters?.length || op.requestBody ? ['400'] : []),
        ...(admin ? ['401'] : []),
        ...(path.includes('{') ? ['404'] : []),
        ...(op.requestBody ? ['413'] : []),
        ...(path === '/health' ? [] : ['503']),
      ]
      for (const status of need) if (!statuses.includes(status)) add(`response ${status}`, where)
      for (const status of statuses) {
        const response = op.responses[status]
        const json = response.content?.['application/json']
        if (/^[45]/.test(status)) {
          if (json?.schema?.$ref !== '#/components/schemas/ErrorEnvelope') add(`envelope ${status}`, where)
          if (json?.example?.success !== false) add(`example ${status}`, where)
        } else if (json && json.example === undefined && json.examples === undefined) add(`example ${status}`, where)
      }
    }
  return problems
}
