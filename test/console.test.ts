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
    expect(page).toContain('<script src="/admin/assets/console.js" defer></script>');
    // No inline script at all: every <script> has a src.
    expect(page.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
    expect(page).not.toMatch(/https?:\/\//);
  });

  it("serves its script, styles and charting library from the Worker itself", async () => {
    for (const [name, type, sample] of [
      ["console.js", "text/javascript", "textContent"],
      ["console.css", "text/css", "--accent"],
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
