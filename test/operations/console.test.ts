import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const get = (path: string) => exports.default.fetch(new Request(`https://coordinator.test${path}`));

describe("the operations console's page and assets (GET /admin)", () => {
  it("serves the page without a token, under a CSP that allows no inline script and no other origin", async () => {
    const response = await get("/admin");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    const page = await response.text();
    expect(page).toContain('<script type="module" src="/admin/assets/console.js"></script>');
    // uPlot after console.js: deferred scripts and modules run in document order, so console.js and
    // its imports have set a language Intl accepts before uPlot reads navigator.language.
    expect(page.indexOf("/admin/assets/console.js")).toBeLessThan(page.indexOf("/admin/assets/uPlot.iife.min.js"));
    expect(page).toContain('<script src="/admin/assets/uPlot.iife.min.js" defer></script>');
    // No inline script at all: every <script> has a src.
    expect(page.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
    expect(page).not.toMatch(/https?:\/\//);
  });

  it("serves its script, styles and charting library from the Worker itself", async () => {
    for (const [name, type, sample] of [
      ["console.js", "text/javascript", "sign-in-form"],
      ["dom.browser.js", "text/javascript", "textContent"],
      ["console.css", "text/css", "--accent"],
      ["events.css", "text/css", "ol.timeline"],
      ["uPlot.iife.min.js", "text/javascript", "uPlot"],
      ["uPlot.min.css", "text/css", ".uplot"],
    ] as const) {
      const response = await get(`/admin/assets/${name}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get("content-type")).toContain(type);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await response.text()).toContain(sample);
    }
    expect((await get("/admin/assets/secrets.txt")).status).toBe(404);
  });

  it("serves every module console.js imports, at the address the import names, as JavaScript", async () => {
    const seen = new Set<string>();
    const pending = ["console.js"];
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (seen.has(name)) continue;
      seen.add(name);
      const response = await get(`/admin/assets/${name}`);
      expect(response.status, name).toBe(200);
      // Browsers run a module only when it is served with a JavaScript type.
      expect(response.headers.get("content-type"), name).toBe("text/javascript; charset=utf-8");
      expect(response.headers.get("content-security-policy"), name).toContain("script-src 'self'");
      for (const [, specifier] of (await response.text()).matchAll(/^import\s[^;]*?["']([^"']+)["'];/gm)) {
        // Relative to /admin/assets/: this origin only, which the CSP's script-src 'self' allows.
        expect(specifier, name).toMatch(/^\.\/[\w.]+\.js$/);
        pending.push(specifier!.slice(2));
      }
    }
    // The entry and every concern it is made of.
    expect(seen.size).toBeGreaterThan(8);
    expect(seen).toContain("format.browser.js");
    expect(seen).toContain("eventTimeline.browser.js");
  });

  it("only its own assets: names every object has (__proto__, constructor, toString) are 404", async () => {
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
      expect((await get(`/admin/assets/${name}`)).status, name).toBe(404);
    }
  });

  it("the page's data needs the token: the API refuses without it", async () => {
    expect((await get("/admin/api/overview")).status).toBe(401);
    expect((await get("/admin/api/parked")).status).toBe(401);
  });
});
