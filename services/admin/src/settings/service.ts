import { inArray, sql } from 'drizzle-orm'
import { settings, type Database } from '@app/db'
import { HttpError, httpUrl, type FieldError } from '@app/kit'
import { changedFields, writeAudit } from '../audit/service'
import { cleanLine } from '../text'
import { SETTING_KEYS, type SettingKey, type SettingsPatch } from './model'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const PHONE = /^\+?[0-9 ().-]{6,30}$/

export async function readSettings({ db }: Database): Promise<Record<SettingKey, string>> {
  const rows = await db
    .select()
    .from(settings)
    .where(inArray(settings.key, [...SETTING_KEYS]))
  const out = Object.fromEntries(SETTING_KEYS.map((k) => [k, ''])) as Record<SettingKey, string>
  for (const row of rows) out[row.key as SettingKey] = row.value
  return out
}

function check(patch: SettingsPatch): Partial<Record<SettingKey, string>> {
  const errors: FieldError[] = []
  const out: Partial<Record<SettingKey, string>> = {}
  for (const key of SETTING_KEYS) {
    const raw = patch[key]
    if (raw === undefined) continue
    const value = cleanLine(raw)
    if (key === 'site_title' && !value) errors.push({ field: key, message: 'Judul situs (site_title) tidak boleh kosong' })
    else if ((key === 'site_logo' || key === 'instagram_url') && value && !httpUrl(value))
      errors.push({ field: key, message: `${key} harus berupa URL yang diawali http:// atau https://` })
    else if (key === 'contact_email' && value && !EMAIL.test(value))
      errors.push({ field: key, message: 'Email kontak (contact_email) tidak valid' })
    else if ((key === 'contact_phone' || key === 'contact_whatsapp') && value && !PHONE.test(value))
      errors.push({ field: key, message: `${key} tidak valid: gunakan angka, boleh diawali +` })
    out[key] = (key === 'site_logo' || key === 'instagram_url') && value ? httpUrl(value)! : value
  }
  if (errors.length) throw new HttpError(400, errors[0].message, errors)
  return out
}

/** Changes the given keys in one transaction; one audit row with the changed keys. */
export async function updateSettings(database: Database, adminId: string, patch: SettingsPatch) {
  const values = check(patch)
  return database.db.transaction(async (tx) => {
    const current = await readSettings({ ...database, db: tx as any })
    const diff = changedFields(current, values)
    if (!diff.changed) return { settings: current, changed: false }
    for (const [key, value] of Object.entries(diff.after))
      await tx
        .insert(settings)
        .values({ key, value: value as string })
        .onConflictDoUpdate({ target: settings.key, set: { value: value as string, updatedAt: sql`now()` } })
    await writeAudit(tx, {
      adminId,
      action: 'update',
      entity: 'settings',
      entityId: 'site',
      before: diff.before,
      after: diff.after,
    })
    return { settings: { ...current, ...values }, changed: true }
  })
}
