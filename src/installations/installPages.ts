/** Small self-contained HTML pages for the end of an install, one per outcome. */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** The pages' only resource is their inline style sheet. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function page(title: string, body: string, status: number, headers: HeadersInit = {}): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1d1c1d}
h1{font-size:1.4rem}code{background:#f4f4f4;padding:0 .25em;border-radius:3px}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  const all = new Headers(headers);
  all.set("content-type", "text/html;charset=utf-8");
  all.set("cache-control", "no-store");
  // No script, no framing (clickjacking), no sniffing, no referrer carrying the code and state away.
  all.set("content-security-policy", CSP);
  all.set("x-content-type-options", "nosniff");
  all.set("x-frame-options", "DENY");
  all.set("referrer-policy", "no-referrer");
  return new Response(html, { status, headers: all });
}

export function installedPage(workspace: string, headers: HeadersInit): Response {
  return page(
    "Installed",
    `<p>The app is installed in <strong>${escapeHtml(workspace)}</strong>. You can close this page and return to Slack.</p>`,
    200,
    headers,
  );
}

/** A failed install: what went wrong in a sentence, and what to do about it. */
export function installFailedPage(status: number, problem: string, advice: string, headers: HeadersInit): Response {
  return page("Installation failed", `<p>${escapeHtml(problem)}</p><p>${escapeHtml(advice)}</p>`, status, headers);
}
