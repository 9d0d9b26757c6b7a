import type { RelayEffect } from "../app/contract";
import { openRequestBody, type TokenKeys } from "../auth/functionTokens";
import type { RawRequest } from "../inbound/types";
import { fromBase64, toBase64 } from "../platform/base64";
import type { RelaySettings } from "../settings";
import { signBody } from "../slack/verifySignature";
import { relayTraceparent } from "./traceparent";

const encoder = new TextEncoder();

/** The relayed body: the bytes Slack sent. One that carried a custom step's token is stored sealed, and opened only here. */
export async function relayBody({ body, encoding, sealed }: RawRequest, keys: TokenKeys): Promise<Uint8Array> {
  const text = sealed ? await openRequestBody(keys, body) : body;
  return encoding === "base64" ? fromBase64(text) : encoder.encode(text);
}

/**
 * Standard Webhooks (standardwebhooks.com): `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`
 * under the secret's bytes (the base64 after `whsec_`).
 */
export async function standardWebhookSignature(secret: string, id: string, timestamp: string, body: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    fromBase64(secret.replace(/^whsec_/, "")),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signed = new Uint8Array([...encoder.encode(`${id}.${timestamp}.`), ...body]);
  return `v1,${toBase64(new Uint8Array(await crypto.subtle.sign("HMAC", key, signed)))}`;
}

/**
 * The headers of one relay attempt: the original content-type; Slack's signature scheme with a
 * fresh timestamp under RELAY_SIGNING_SECRET (a stock Slack verifier accepts it, however late);
 * Slack's retry headers as it sent them; the delivery id and the attempt number; and, with
 * RELAY_WEBHOOK_SECRET, Standard Webhooks' three headers; and a W3C `traceparent`.
 */
export async function relayHeaders(
  effect: RelayEffect,
  body: Uint8Array,
  settings: RelaySettings,
  attempt: number,
  nowSeconds: number,
): Promise<Headers> {
  const timestamp = String(nowSeconds);
  const headers = new Headers({
    "content-type": effect.request.contentType,
    "x-slack-request-timestamp": timestamp,
    "x-slack-signature": await signBody(settings.signingSecret, timestamp, body),
    "x-relay-delivery-id": effect.deliveryId,
    "x-relay-attempt": String(attempt),
    // W3C Trace Context: the backend's spans join one trace per delivery (relay/traceparent.ts).
    traceparent: await relayTraceparent(effect.deliveryId, attempt, effect.request.traceparent),
  });
  if (effect.retryNum !== undefined) headers.set("x-slack-retry-num", String(effect.retryNum));
  if (effect.retryReason !== undefined) headers.set("x-slack-retry-reason", effect.retryReason);
  if (settings.webhookSecret) {
    headers.set("webhook-id", effect.deliveryId);
    headers.set("webhook-timestamp", timestamp);
    headers.set("webhook-signature", await standardWebhookSignature(settings.webhookSecret, effect.deliveryId, timestamp, body));
  }
  return headers;
}
