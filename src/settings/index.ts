/**
 * The settings, by the part that reads them (src/settings/: one table, a reader per part). Each
 * part's settings are parsed once per isolate (per `env` object), so the Slack path depends only on
 * what it reads: the edge on its three, a shard's recording on the receipt retention; a bad
 * delivery setting pauses delivery (rows wait, logged) rather than failing acks. A bad value
 * throws InvalidSetting naming the setting, at the first request that needs it.
 */
export { type AlertSettings, alertSettings } from "./alerts";
export { type DeliverySettings, deliverySettings } from "./delivery";
export { type EdgeSettings, edgeSettings, type RecordSettings, recordSettings } from "./edge";
export { inOAuthMode, oauthMode, relayMode } from "./modes";
export { type OAuthSettings, oauthSettings } from "./oauth";
export { type RelaySettings, relaySettings } from "./relaySettings";
export { type SpreadSettings, spreadSettings } from "./spread";
