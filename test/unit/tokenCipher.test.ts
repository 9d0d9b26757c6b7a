import { describe, expect, it } from "vitest";
import { tokenCipher } from "../../src/auth/tokenCipher";
import { TokenUnreadable } from "../../src/platform/errors";

/** 32 bytes, base64, as `openssl rand -base64 32` prints them. */
function newKey(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
}

describe("tokens at rest (AES-GCM under TOKEN_ENCRYPTION_KEY)", () => {
  it("round-trips a token, and the ciphertext neither contains it nor repeats (fresh IV each time)", async () => {
    const cipher = await tokenCipher({ TOKEN_ENCRYPTION_KEY: newKey() });
    const token = "xoxb-1234-5678-secretpart";
    const [first, second] = [await cipher.encrypt(token), await cipher.encrypt(token)];
    expect(first).not.toContain("secretpart");
    expect(first).not.toBe(second);
    expect(first.startsWith(`v1.${cipher.keyId}.`)).toBe(true);
    expect(await cipher.decrypt(first)).toBe(token);
    expect(await cipher.decrypt(second)).toBe(token);
  });

  it("rotation: the previous key still opens old tokens, new ones are sealed under the current key", async () => {
    const [oldKey, newKeyValue] = [newKey(), newKey()];
    const before = await tokenCipher({ TOKEN_ENCRYPTION_KEY: oldKey });
    const sealedBefore = await before.encrypt("xoxb-old");
    const after = await tokenCipher({ TOKEN_ENCRYPTION_KEY: newKeyValue, TOKEN_ENCRYPTION_KEY_PREVIOUS: oldKey });
    expect(await after.decrypt(sealedBefore)).toBe("xoxb-old");
    expect(after.keyId).not.toBe(before.keyId);
    expect((await after.encrypt("xoxb-new")).split(".")[1]).toBe(after.keyId);
    // Once the previous key is dropped, what only it sealed can no longer be opened.
    const dropped = await tokenCipher({ TOKEN_ENCRYPTION_KEY: newKeyValue });
    await expect(dropped.decrypt(sealedBefore)).rejects.toThrow(TokenUnreadable);
  });

  it("a tampered ciphertext fails GCM's integrity check", async () => {
    const cipher = await tokenCipher({ TOKEN_ENCRYPTION_KEY: newKey() });
    const [version, keyId, iv, data] = (await cipher.encrypt("xoxb-token")).split(".");
    const flipped = `${data!.startsWith("A") ? "B" : "A"}${data!.slice(1)}`;
    await expect(cipher.decrypt([version, keyId, iv, flipped].join("."))).rejects.toThrow(/integrity check/);
  });

  it("refuses to run without a usable key, naming the setting", async () => {
    await expect(tokenCipher({})).rejects.toThrow(/^TOKEN_ENCRYPTION_KEY is not set/);
    await expect(tokenCipher({ TOKEN_ENCRYPTION_KEY: btoa("too short") })).rejects.toThrow(
      /^TOKEN_ENCRYPTION_KEY must be 32 bytes/,
    );
    await expect(tokenCipher({ TOKEN_ENCRYPTION_KEY: newKey(), TOKEN_ENCRYPTION_KEY_PREVIOUS: "%%%" })).rejects.toThrow(
      /^TOKEN_ENCRYPTION_KEY_PREVIOUS must be base64/,
    );
  });
});
