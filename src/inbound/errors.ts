/** A signed request Slack should not retry: its body can never be understood by us. */
export class MalformedPayload extends Error {
  override name = "MalformedPayload";
}
