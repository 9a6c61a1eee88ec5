import { t } from 'elysia'

/** The body of a 301 from an old slug (the Location header carries the same URL). */
export const slugMovedResponse = t.Object(
  { success: t.Literal(true), moved_to: t.String(), slug: t.String() },
  { description: 'Slug lama dari event/artikel yang slugnya diubah: 301 dengan header Location ke slug baru' },
)

/** A 301 to the current URL of a renamed event or article (links shared before the rename keep working). */
export function movedPermanently(request: Request, location: string, slug: string): Response {
  const query = new URL(request.url).search
  return new Response(JSON.stringify({ success: true, moved_to: location + query, slug }), {
    status: 301,
    headers: {
      location: location + query,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=300',
    },
  })
}
