import { t } from 'elysia'
import { pageQuery } from '@app/kit'

const isoDate = (field: string) =>
  t.Optional(
    t.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$',
      error: `${field} harus berupa tanggal ISO 8601 (YYYY-MM-DD atau YYYY-MM-DDTHH:mm:ssZ)`,
    }),
  )

export const auditQuery = t.Object({
  ...pageQuery,
  admin_id: t.Optional(t.String({ maxLength: 100, error: 'admin_id maksimal 100 karakter' })),
  entity: t.Optional(
    t.String({
      maxLength: 40,
      error: 'entity maksimal 40 karakter',
      description: 'event, news, category, city, tag, settings, user',
    }),
  ),
  entity_id: t.Optional(t.String({ maxLength: 100, error: 'entity_id maksimal 100 karakter' })),
  from: isoDate('from'),
  to: isoDate('to'),
})

const anyRecord = t.Union([t.Record(t.String(), t.Unknown()), t.Null()])

export const auditListResponse = t.Object({
  success: t.Literal(true),
  entries: t.Array(
    t.Object({
      id: t.String(),
      admin_id: t.Union([t.String(), t.Null()]),
      admin_username: t.Union([t.String(), t.Null()]),
      action: t.String(),
      entity: t.String(),
      entity_id: t.String(),
      before: anyRecord,
      after: anyRecord,
      reason: t.Union([t.String(), t.Null()]),
      created_at: t.String(),
    }),
  ),
  total: t.Integer(),
  page: t.Integer(),
  limit: t.Integer(),
})
