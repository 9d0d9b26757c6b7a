import { InvalidSetting } from "../platform/errors";
import { oncePerEnv } from "./once";
import { setting } from "./table";

/** Relay mode: on when RELAY_URL is set (docs/guides/relay.md). */
export interface RelaySettings {
  url: string;
  /** Signs what is relayed as Slack would: RELAY_SIGNING_SECRET, else SLACK_SIGNING_SECRET. */
  signingSecret: string;
  timeoutMs: number;
  /**
   * Commands and interactivity: how long after the request arrived the ack may wait for the
   * backend response to its first attempt (0: never wait). At most RELAY_SYNC_MS_MAX.
   */
  syncMs: number;
  retryHours: number;
  /** Standard Webhooks secret (`whsec_…`), for backends that verify that scheme too. */
  webhookSecret?: string;
}

/** The longest RELAY_SYNC_MS: the ack must leave before Slack's 3 seconds are up, network included. */
export const RELAY_SYNC_MS_MAX = 2_500;

/** Null unless RELAY_URL is set; throws InvalidSetting for a relay setting that cannot work. */
export const relaySettings = oncePerEnv((vars): RelaySettings | null => {
  const relayUrl = setting(vars, "RELAY_URL");
  if (relayUrl === undefined) return null;
  const signingSecret = setting(vars, "RELAY_SIGNING_SECRET") ?? setting(vars, "SLACK_SIGNING_SECRET");
  if (signingSecret === undefined) throw new InvalidSetting("RELAY_SIGNING_SECRET", "is not set, nor SLACK_SIGNING_SECRET");
  const timeoutMs = setting(vars, "RELAY_TIMEOUT_MS");
  if (timeoutMs > 300_000) throw new InvalidSetting("RELAY_TIMEOUT_MS", `must be at most 300000, got ${timeoutMs}`);
  const syncMs = setting(vars, "RELAY_SYNC_MS");
  if (syncMs > RELAY_SYNC_MS_MAX)
    throw new InvalidSetting("RELAY_SYNC_MS", `must be at most ${RELAY_SYNC_MS_MAX} (Slack waits 3 s), got ${syncMs}`);
  const webhookSecret = setting(vars, "RELAY_WEBHOOK_SECRET");
  if (webhookSecret !== undefined && !/^whsec_[A-Za-z0-9+/]+=*$/.test(webhookSecret))
    throw new InvalidSetting("RELAY_WEBHOOK_SECRET", "must be a Standard Webhooks secret: whsec_ followed by base64");
  return { url: relayUrl, signingSecret, timeoutMs, syncMs, retryHours: setting(vars, "RELAY_RETRY_HOURS"), webhookSecret };
});
