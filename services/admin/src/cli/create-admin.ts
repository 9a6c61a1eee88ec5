// `bun run admin:create [username] [--name "Nama Lengkap"]`
//
// Creates an admin, or resets the password of an existing one (which also ends its sessions).
// The username comes from the argument or ADMIN_USERNAME; the password from ADMIN_PASSWORD or
// stdin (asked twice without echo on a terminal, or the first line of a pipe) and NEVER from
// the command line, where it would end up in the shell history and the process list.
// Works against DATABASE_URL, or the embedded PGlite database under DATA_DIR (stop `bun start`
// first: PGlite is single-process). Migrations run first, so it also works on a new database.
import { join } from 'node:path'
import { createDb, migrateDb } from '@app/db'
import { ConfigError, readConfig } from '@app/kit'
import { createOrResetAdmin } from '../users/service'

export const USERNAME_PATTERN = /^[a-zA-Z0-9._-]{3,50}$/
export const MIN_PASSWORD_LENGTH = 12
const MAX_PASSWORD_LENGTH = 1024

export class UsageError extends Error {}

const USAGE = `Pakai: bun run admin:create [username] [--name "Nama Lengkap"]
  username   3-50 huruf, angka, titik, minus, garis bawah (atau ADMIN_USERNAME)
  password   dari ADMIN_PASSWORD, atau dari stdin (diminta di terminal, atau baris pertama pipe);
             minimal ${MIN_PASSWORD_LENGTH} karakter; TIDAK PERNAH sebagai argumen
Contoh: printf '%s\\n' "$PASSWORD" | bun run admin:create sari --name "Sari Wulandari"`

export function parseArgs(argv: string[]): { username?: string; name?: string; help: boolean } {
  let username: string | undefined
  let name: string | undefined
  let help = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--help' || arg === '-h') help = true
    else if (arg === '--name') {
      name = argv[++i]
      if (name === undefined) throw new UsageError('--name butuh nilai')
    } else if (arg.startsWith('--name=')) name = arg.slice('--name='.length)
    else if (/^-/.test(arg)) {
      if (/pass/i.test(arg))
        throw new UsageError('Password tidak boleh diberikan lewat argumen. Kirim lewat stdin atau ADMIN_PASSWORD.')
      throw new UsageError(`Opsi tidak dikenal: ${arg}`)
    } else if (username === undefined) username = arg
    else
      throw new UsageError(
        'Terlalu banyak argumen. Password tidak boleh diberikan lewat argumen: kirim lewat stdin atau ADMIN_PASSWORD.',
      )
  }
  return { username, name: name?.trim() || undefined, help }
}

export function checkUsername(username: string | undefined): string {
  if (!username) throw new UsageError('Username wajib: berikan sebagai argumen atau ADMIN_USERNAME.')
  if (!USERNAME_PATTERN.test(username))
    throw new UsageError('Username harus 3-50 karakter: huruf, angka, titik, minus, atau garis bawah.')
  return username
}

export function checkPassword(password: string | undefined): string {
  if (!password) throw new UsageError('Password kosong.')
  if (password.length < MIN_PASSWORD_LENGTH) throw new UsageError(`Password minimal ${MIN_PASSWORD_LENGTH} karakter.`)
  if (password.length > MAX_PASSWORD_LENGTH) throw new UsageError(`Password maksimal ${MAX_PASSWORD_LENGTH} karakter.`)
  return password
}

/** The first line of a piped stdin, without its line ending. */
async function readPipedPassword(): Promise<string> {
  const text = await new Response(Bun.stdin.stream()).text()
  return text.split(/\r?\n/)[0]
}

/** One line typed on the terminal with echo off. */
function promptHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin
    process.stderr.write(prompt)
    stdin.setRawMode(true)
    stdin.resume()
    stdin.setEncoding('utf8')
    let value = ''
    const done = (error?: Error) => {
      stdin.setRawMode(false)
      stdin.pause()
      stdin.off('data', onData)
      process.stderr.write('\n')
      if (error) reject(error)
      else resolve(value)
    }
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done()
        if (ch === '\u0003') return done(new UsageError('Dibatalkan.')) // Ctrl+C
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1)
        else if (ch >= ' ') value += ch
      }
    }
    stdin.on('data', onData)
  })
}

async function readPassword(env: Record<string, string | undefined>): Promise<string> {
  if (env.ADMIN_PASSWORD) return checkPassword(env.ADMIN_PASSWORD)
  if (!process.stdin.isTTY) return checkPassword(await readPipedPassword())
  const password = checkPassword(await promptHidden('Password baru: '))
  if ((await promptHidden('Ulangi password: ')) !== password) throw new UsageError('Kedua password tidak sama.')
  return password
}

export async function main(argv = process.argv.slice(2), env: Record<string, string | undefined> = process.env) {
  const args = parseArgs(argv)
  if (args.help) {
    console.log(USAGE)
    return
  }
  const username = checkUsername(args.username ?? env.ADMIN_USERNAME)
  // the database settings only: ADMIN_* are this script's input, checked above and below
  const config = readConfig({ ...env, ADMIN_USERNAME: undefined, ADMIN_PASSWORD: undefined })
  const password = await readPassword(env)

  const database = await createDb(config.databaseUrl, { dataDir: join(config.dataDir, 'pglite') })
  try {
    await migrateDb(database)
    const result = await createOrResetAdmin(database, { username, password, name: args.name })
    console.log(
      result === 'created' ? `Admin "${username}" dibuat.` : `Password admin "${username}" direset; semua sesi lamanya diakhiri.`,
    )
  } finally {
    await database.close()
  }
}

if (import.meta.main) {
  try {
    await main()
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      console.error(error.message)
      if (error instanceof UsageError) console.error(`\n${USAGE}`)
      process.exit(2)
    }
    console.error(`Gagal: ${(error as Error)?.message ?? error}`)
    process.exit(1)
  }
}
