/**
 * A token is refreshed when less than this much of its life is left, and shards stop using a
 * cached token at the same point, so no call is made with a token about to expire. Well above
 * DELIVERY_TIMEOUT_MS, so a call started with a token finishes before it expires.
 */
export const TOKEN_REFRESH_MARGIN_MS = 15 * 60_000;
