// The stand-in for `openai.responses.create({ stream: true, tools: [roll_dice] })` in the ported
// assistant template (assistantTemplate.ts): deterministic, no network. It streams the events the
// sample reads — text deltas, and a `function_call` item when the user asks to roll dice — in
// OpenAI's Responses API shapes, and answers a turn that already has the tool's output in text.

export type ResponseEvent =
  | { type: "response.output_text.delta"; delta: string }
  | {
      type: "response.output_item.done";
      item: { type: "function_call"; id: string; call_id: string; name: string; arguments: string } | { type: "message" };
    };

const words = (text: string) => text.match(/\S+\s*/g) ?? [];

export async function* scriptedResponses(
  prompts: ReadonlyArray<{ type?: string; content?: string; output?: string }>,
): AsyncGenerator<ResponseEvent> {
  const asked = prompts.find((prompt) => prompt.content !== undefined)?.content ?? "";
  const rolled = prompts.filter((prompt) => prompt.type === "function_call_output");
  if (/\broll\b/i.test(asked) && rolled.length === 0) {
    yield* words("Let me roll those for you. ").map((delta) => ({ type: "response.output_text.delta" as const, delta }));
    const item = {
      type: "function_call" as const,
      id: "fc_1",
      call_id: "call_dice_1",
      name: "roll_dice",
      arguments: '{"sides":12,"count":2}',
    };
    yield { type: "response.output_item.done", item };
    return;
  }
  const answer =
    rolled.length > 0
      ? `Your dice total ${(JSON.parse(rolled[0]?.output ?? "{}") as { total?: number }).total}.`
      : `You said: ${asked}`;
  for (const delta of words(answer)) yield { type: "response.output_text.delta", delta };
  yield { type: "response.output_item.done", item: { type: "message" } };
}
