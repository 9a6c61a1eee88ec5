import { t } from 'elysia'

/** The keys DESIGN.md fixes (all strings). */
export const SETTING_KEYS = [
  'site_title',
  'site_tagline',
  'site_logo',
  'instagram_url',
  'meta_description',
  'contact_email',
  'contact_phone',
  'contact_whatsapp',
] as const
export type SettingKey = (typeof SETTING_KEYS)[number]

const value = (description: string, maxLength = 500) =>
  t.Optional(t.String({ maxLength, error: `Nilai harus berupa teks, maksimal ${maxLength} karakter`, description }))

export const settingsPatchBody = t.Object(
  {
    site_title: value('Judul situs, wajib tidak kosong', 100),
    site_tagline: value('Tagline', 200),
    site_logo: value('URL logo http(s), boleh kosong', 2000),
    instagram_url: value('URL Instagram http(s), boleh kosong', 2000),
    meta_description: value('Deskripsi untuk mesin pencari', 300),
    contact_email: value('Email kontak, boleh kosong', 254),
    contact_phone: value('Telepon kontak, boleh kosong', 30),
    contact_whatsapp: value('Nomor WhatsApp, boleh kosong', 30),
  },
  {
    additionalProperties: false,
    error: 'Pengaturan harus berupa objek JSON dengan kunci yang dikenal: ' + SETTING_KEYS.join(', '),
  },
)
export type SettingsPatch = typeof settingsPatchBody.static

export const settingsResponse = t.Object({
  success: t.Literal(true),
  settings: t.Object(
    Object.fromEntries(SETTING_KEYS.map((k) => [k, t.String()])) as Record<SettingKey, ReturnType<typeof t.String>>,
  ),
})
