import { HttpError } from '@app/kit'

// Optimistic concurrency: every editable row carries a revision, bumped by each admin change.
// Its ETag is "<revision>"; a write with If-Match of another revision answers 412.

export const etagOf = (revision: number) => `"${revision}"`

export const MESSAGES = {
  preconditionFailed:
    'Data ini sudah diubah orang lain sejak Anda membukanya (ETag tidak cocok). Muat ulang, periksa perubahannya, lalu simpan lagi.',
  preconditionRequired: 'Header If-Match wajib: kirim ETag dari GET terakhir agar perubahan orang lain tidak tertimpa',
}

/** The revision If-Match asks for: undefined when absent or `*`; a malformed value never matches. */
export function ifMatchRevision(headers: Headers, required = false): number | undefined {
  const raw = headers.get('if-match')?.trim()
  if (!raw || raw === '*') {
    if (required && !raw) throw new HttpError(428, MESSAGES.preconditionRequired)
    return undefined
  }
  const m = /^(?:W\/)?"(\d{1,9})"$/.exec(raw)
  return m ? Number(m[1]) : -1
}

/** 412 when If-Match named another revision than the row's current one. */
export function checkRevision(expected: number | undefined, current: number): void {
  if (expected !== undefined && expected !== current) throw new HttpError(412, MESSAGES.preconditionFailed)
}
