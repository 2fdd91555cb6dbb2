// /api/v1/docs: the API reference. Swagger UI (swagger-ui-dist, copied into public/vendor/ by
// scripts/build-assets.mjs and served as Workers static assets) renders the generated document at
// /api/v1/openapi.json; public/docs/init.js starts it. Nothing loads from a CDN and the page has no
// inline script or style, so its CSP admits only this origin ('self') for every kind of resource.
import { API_VERSION } from "../config";

/** Only this origin's scripts, styles, images and requests (try-it calls the API on the same host); no framing. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ponte API ${API_VERSION} — reference</title>
<link rel="stylesheet" href="/vendor/swagger-ui-dist/swagger-ui.css">
<link rel="stylesheet" href="/docs/docs.css">
</head>
<body>
<main id="swagger-ui" data-openapi-url="/api/v1/openapi.json">
<noscript><p>The reference needs JavaScript. The document itself: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1).</p></noscript>
</main>
<script src="/vendor/swagger-ui-dist/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;
