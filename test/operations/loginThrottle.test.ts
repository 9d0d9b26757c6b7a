import { exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { FAILED_LOGIN_WINDOW_MS, FAILED_LOGINS_ALLOWED } from "../../src/admin/loginThrottle";
import { controlClock } from "../support/clock";
import { TEST_BINDINGS } from "../support/testBindings";

/** GET /admin/health through the Worker from `client` (CF-Connecting-IP) with `token`. */
function loginFrom(client: string, token: string | null) {
  const headers = new Headers({ "cf-connecting-ip": client });
  if (token !== null) headers.set("authorization", `Bearer ${token}`);
  return exports.default.fetch(new Request("https://coordinator.test/admin/health", { headers }));
}

const wrong = "guessed-0123456789abcdef";
const guess = (n: number) => `guessed-${n}-0123456789abcdef`;

describe("failed admin logins are slowed per client", () => {
  it("after five different wrong tokens in a minute a client gets 429 with Retry-After, the right token too, until the minute ends", async () => {
    const clock = controlClock();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const guesser = "203.0.113.7";
    for (let i = 0; i < FAILED_LOGINS_ALLOWED; i++) expect((await loginFrom(guesser, guess(i))).status).toBe(401);

    clock.advance(20_000);
    const throttled = await loginFrom(guesser, guess(99));
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("retry-after")).toBe(String((FAILED_LOGIN_WINDOW_MS - 20_000) / 1000));
    // Throttled before the token is compared: the right one cannot be found by guessing on.
    expect((await loginFrom(guesser, TEST_BINDINGS.ADMIN_TOKEN)).status).toBe(429);

    // Another client is not held back by this one.
    expect((await loginFrom("203.0.113.8", TEST_BINDINGS.ADMIN_TOKEN)).status).toBe(200);

    clock.advance(FAILED_LOGIN_WINDOW_MS - 20_000);
    expect((await loginFrom(guesser, TEST_BINDINGS.ADMIN_TOKEN)).status).toBe(200);
    // The first /admin/health wakes the watch: slow on a busy machine.
  }, 20_000);

  it("a missing token is no guess, nor is one wrong token sent again (the console's requests of one sign-in)", async () => {
    controlClock();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const client = "203.0.113.9";
    for (let i = 0; i < 20; i++) expect((await loginFrom(client, null)).status).toBe(401);
    for (let i = 0; i < 20; i++) expect((await loginFrom(client, wrong)).status).toBe(401);
    for (let i = 0; i < FAILED_LOGINS_ALLOWED - 2; i++) expect((await loginFrom(client, guess(i))).status).toBe(401);
    expect((await loginFrom(client, TEST_BINDINGS.ADMIN_TOKEN)).status).toBe(200);
  });
});
