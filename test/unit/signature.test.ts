import { describe, expect, it } from "vitest";
import { InvalidSignature } from "../../src/platform/errors";
import { signatureBytes, signBody, verifySignature } from "../../src/slack/verifySignature";

const encoder = new TextEncoder();
const now = 1_800_000_000;

async function check(options: { secrets?: string[]; timestamp?: string | null; signature?: string | null; body?: string }) {
  const body = options.body ?? '{"type":"event_callback"}';
  const timestamp = options.timestamp === undefined ? String(now) : options.timestamp;
  const signature = options.signature === undefined ? await signBody("current", String(now), body) : options.signature;
  return verifySignature({
    secrets: options.secrets ?? ["current"],
    timestamp,
    signature,
    body: encoder.encode(body),
    nowSeconds: now,
  });
}

describe("verifySignature (Slack v0)", () => {
  it("accepts a body signed with the current secret", async () => {
    await expect(check({})).resolves.toBeUndefined();
  });

  it("accepts the previous secret during a rotation", async () => {
    const body = "token=x&command=%2Fecho";
    const signature = await signBody("previous", String(now), body);
    await expect(check({ secrets: ["current", "previous"], signature, body })).resolves.toBeUndefined();
    await expect(check({ secrets: ["current"], signature, body })).rejects.toThrow(InvalidSignature);
  });

  it("matches Slack's documented example signature", async () => {
    // From Slack's "Verifying requests from Slack" guide.
    const body =
      "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    const signature = await signBody("8f742231b10e8888abcd99yyyzzz85a5", "1531420618", body);
    expect(signature).toBe("v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503");
  });

  it("rejects a tampered body", async () => {
    const signature = await signBody("current", String(now), "original");
    await expect(check({ signature, body: "tampered" })).rejects.toThrow("signature mismatch");
  });

  it("rejects timestamps more than 300 s in the past or the future", async () => {
    for (const timestamp of [now - 301, now + 301]) {
      const body = "x";
      const signature = await signBody("current", String(timestamp), body);
      await expect(check({ timestamp: String(timestamp), signature, body })).rejects.toThrow("300 s window");
    }
    const edge = now - 300;
    await expect(
      check({ timestamp: String(edge), signature: await signBody("current", String(edge), "x"), body: "x" }),
    ).resolves.toBeUndefined();
  });

  it("rejects missing and garbled headers", async () => {
    await expect(check({ timestamp: null })).rejects.toThrow(InvalidSignature);
    await expect(check({ timestamp: "soon" })).rejects.toThrow(InvalidSignature);
    await expect(check({ signature: null })).rejects.toThrow(InvalidSignature);
    await expect(check({ signature: "v1=abc" })).rejects.toThrow(InvalidSignature);
    await expect(check({ signature: `v0=${"z".repeat(64)}` })).rejects.toThrow(InvalidSignature);
  });

  it("reads every byte of a signature, in lower or upper case hex", async () => {
    const all = Array.from({ length: 256 }, (_, byte) => byte);
    for (let start = 0; start < 256; start += 32) {
      const bytes = all.slice(start, start + 32);
      const hex = bytes.map((byte) => byte.toString(16).padStart(2, "0")).join("");
      for (const cased of [hex, hex.toUpperCase()]) expect([...(signatureBytes(`v0=${cased}`) ?? [])]).toEqual(bytes);
    }
    const signed = await signBody("current", String(now), "{}");
    await expect(check({ signature: signed.toUpperCase().replace("V0=", "v0="), body: "{}" })).resolves.toBeUndefined();
  });
});
