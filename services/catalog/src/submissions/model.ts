import { t } from 'elysia'

export { eventInputBody as submissionBody } from '@app/kit'
import type { EventInputBody } from '@app/kit'

export type SubmissionBody = EventInputBody

export const submissionResponse = t.Object({
  success: t.Literal(true),
  message: t.String(),
  event: t.Object({ id: t.String(), title: t.String(), slug: t.String() }),
})
