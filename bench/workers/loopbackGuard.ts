/**
 * Every outbound fetch of a measured Worker passes through here (Miniflare `outboundService`):
 * loopback is forwarded, anything else is refused and logged, so no run can reach Slack or
 * any other host whatever a library defaults to.
 */
export default {
  fetch(request) {
    const { hostname } = new URL(request.url);
    if (hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]") return fetch(request);
    console.error(JSON.stringify({ level: "error", msg: "outbound blocked", host: hostname }));
    return new Response("outbound blocked by the bench: loopback only", { status: 599 });
  },
} satisfies ExportedHandler;
