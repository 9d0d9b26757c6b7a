import { describe, expect, it } from "vitest";
import { withWebApiMethods } from "../../src/slack/webApiMethods";

describe("the typed Web API client", () => {
  it("is not a thenable (awaiting the client gives it back), and bind/call/apply reach the method", async () => {
    const calls: string[] = [];
    const client = withWebApiMethods({ call: async (method: string) => void calls.push(method) });
    expect(await Promise.resolve(client)).toBe(client);
    await (client as unknown as { conversations: { replies(args: object): Promise<unknown> } }).conversations.replies({
      channel: "C1",
      ts: "1.2",
    });
    const methods = client as unknown as { chat: { postMessage(args: object): Promise<unknown> } };
    // Wrappers that bind, call or apply a method still make that one call.
    await methods.chat.postMessage.bind(methods.chat)({ channel: "C1", text: "a" });
    await methods.chat.postMessage.call(methods.chat, { channel: "C1", text: "b" });
    await methods.chat.postMessage.apply(methods.chat, [{ channel: "C1", text: "c" }]);
    expect(calls).toEqual(["conversations.replies", "chat.postMessage", "chat.postMessage", "chat.postMessage"]);
  });
});
