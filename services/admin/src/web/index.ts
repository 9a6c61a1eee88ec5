// The studio's web app at /admin/: one HTML page, one bundle built by Bun's bundler from
// services/admin/web/app.ts (at the first request, then kept in memory), one stylesheet.
// Everything is served from this origin: no CDN, works offline.
import { Elysia } from 'elysia'
import { fileURLToPath } from 'node:url'

const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url))

// the page talks only to its own origin; images may come from the media host (any http(s))
const CSP =
  "default-src 'self'; img-src 'self' data: blob: http: https:; style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

const headers = (type: string) => ({
  'content-type': type,
  'cache-control': 'no-cache',
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
})

/** Bundles app.ts (minified, browser target); throws with the build log when it fails. */
export async function buildStudio(): Promise<string> {
  const result = await Bun.build({ entrypoints: [`${WEB_DIR}app.ts`], target: 'browser', minify: true, format: 'esm' })
  if (!result.success) throw new Error(`admin web build failed: ${result.logs.map(String).join('\n')}`)
  return result.outputs[0].text()
}

export const webRoutes = () => {
  let bundle: Promise<string> | undefined
  const js = () => (bundle ??= buildStudio().catch((error) => ((bundle = undefined), Promise.reject(error))))
  return (
    new Elysia({ name: 'admin.web' })
      // /admin and /admin/ alike (every asset URL is absolute)
      .get(
        '/admin/',
        async () => new Response(await Bun.file(`${WEB_DIR}index.html`).text(), { headers: headers('text/html; charset=utf-8') }),
        {
          detail: { hide: true },
        },
      )
      .get('/admin/app.js', async () => new Response(await js(), { headers: headers('text/javascript; charset=utf-8') }), {
        detail: { hide: true },
      })
      .get(
        '/admin/app.css',
        async () => new Response(await Bun.file(`${WEB_DIR}app.css`).text(), { headers: headers('text/css; charset=utf-8') }),
        {
          detail: { hide: true },
        },
      )
  )
}
