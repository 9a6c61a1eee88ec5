import { t } from 'elysia'
import { oneOf } from '@app/kit'

export const ROLES = ['owner', 'editor'] as const
export const MIN_PASSWORD = 12

const password = (field: string) =>
  t.String({ minLength: MIN_PASSWORD, maxLength: 1024, error: `${field} minimal ${MIN_PASSWORD} karakter (maksimal 1024)` })

export const userCreateBody = t.Object(
  {
    username: t.String({
      pattern: '^[a-zA-Z0-9._-]{3,50}$',
      error: 'username harus 3-50 karakter: huruf, angka, titik, minus, atau garis bawah',
    }),
    name: t.Optional(t.String({ maxLength: 100, error: 'name maksimal 100 karakter' })),
    password: password('password'),
    role: t.Optional(oneOf([...ROLES], { error: 'role harus owner atau editor', description: 'Bawaan editor' })),
  },
  { error: 'Data pengguna harus berupa objek JSON' },
)

export const userPatchBody = t.Object(
  {
    name: t.Optional(t.String({ minLength: 1, maxLength: 100, error: 'name harus 1-100 karakter' })),
    role: t.Optional(oneOf([...ROLES], { error: 'role harus owner atau editor' })),
    disabled: t.Optional(
      t.Boolean({ error: 'disabled harus true atau false', description: 'true mengakhiri semua sesinya seketika' }),
    ),
    password: t.Optional(password('password')),
  },
  { error: 'Data pengguna harus berupa objek JSON' },
)

export const passwordChangeBody = t.Object(
  {
    old_password: t.String({ minLength: 1, maxLength: 1024, error: 'old_password (password lama) wajib diisi' }),
    new_password: password('new_password'),
  },
  { error: 'Data harus berupa objek JSON {old_password, new_password}' },
)

export const userIdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 100, error: 'id tidak valid' }) })

const user = t.Object({
  id: t.String(),
  username: t.String(),
  name: t.String(),
  role: oneOf([...ROLES]),
  disabled: t.Boolean(),
  created_at: t.String(),
  last_seen_at: t.Union([t.String(), t.Null()], { description: 'Terakhir aktif (sesi mana pun)' }),
})

export const userListResponse = t.Object({ success: t.Literal(true), users: t.Array(user) })
export const userResponse = t.Object({ success: t.Literal(true), user })
export const messageResponse = t.Object({ success: t.Literal(true), message: t.String() })
