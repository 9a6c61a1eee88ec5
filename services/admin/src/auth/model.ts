import { t } from 'elysia'

export const loginBody = t.Object({
  username: t.String({ minLength: 1, maxLength: 100, error: 'username wajib diisi (teks, maksimal 100 karakter)' }),
  password: t.String({ minLength: 1, maxLength: 1024, error: 'password wajib diisi (teks, maksimal 1024 karakter)' }),
})

export const adminUser = t.Object({
  id: t.String(),
  username: t.String(),
  name: t.String(),
  role: t.String({ examples: ['owner'], description: 'owner (konten dan pengguna) atau editor (konten saja)' }),
})

export const userResponse = t.Object({ success: t.Literal(true), user: adminUser })

export const messageResponse = t.Object({ success: t.Literal(true), message: t.String() })
