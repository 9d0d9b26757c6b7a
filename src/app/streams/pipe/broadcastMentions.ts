import type { StreamAppendArguments } from "../streamArguments";
import type { PipeTarget } from "./pipeModel";

/**
 * Broadcasts in a model's text: `<!channel>`, `<!here>`, `<!everyone>` and user groups
 * (`<!subteam^ID>`), each with an optional `|label`. In `markdown_text` Slack notifies everyone
 * they name; a model's text is anyone's prompt's echo, so `pipe()` shows them as plain words.
 */
const BROADCAST = /<!(channel|here|everyone|subteam\^[A-Za-z0-9]+)(?:\|([^>]*))?>/g;

/** Longer than any broadcast Slack sends with its label: a `<!` held back this long is not one. */
const LONGEST_HELD = 128;

/** `text` with each broadcast as the words it shows (`@channel`, a group's label, else `@group`), notifying no one. */
export function withoutBroadcasts(text: string): string {
  return text.replace(BROADCAST, (_whole, name: string, label: string | undefined) => {
    if (!name.startsWith("subteam^")) return `@${name}`;
    return label ? label : "@group";
  });
}

/**
 * A stream's appends with the broadcasts of their text made plain. A model streams its text in
 * pieces, so a broadcast may arrive split (`<!cha` then `nnel>`): the end of the text that may
 * still become one is held back until the next text, a chunk, or `end()` (at most LONGEST_HELD
 * characters). What `end()` is not called for (the model's stream failed) is dropped: a fragment.
 */
export class BroadcastGuard implements PipeTarget {
  private held = "";

  constructor(private readonly target: PipeTarget) {}

  async append(args: StreamAppendArguments): Promise<void> {
    if (args.markdown_text !== undefined) {
      const text = this.held + args.markdown_text;
      const open = text.lastIndexOf("<");
      const mayBecomeOne =
        open >= 0 &&
        !text.includes(">", open) &&
        text.length - open <= LONGEST_HELD &&
        "<!".startsWith(text.slice(open, open + 2));
      this.held = mayBecomeOne ? text.slice(open) : "";
      const shown = withoutBroadcasts(mayBecomeOne ? text.slice(0, open) : text);
      if (shown !== "") await this.target.append({ markdown_text: shown });
    }
    if (args.chunks !== undefined) {
      await this.end();
      await this.target.append({ chunks: args.chunks });
    }
  }

  /** The reply's cap, as the target knows it: the pipe stops reading there. */
  get capped(): boolean {
    return this.target.capped;
  }

  sent(): Promise<void> {
    return this.target.sent();
  }

  /** The text held back, shown as it is: the model's text ended before it became a broadcast. */
  async end(): Promise<void> {
    const rest = this.held;
    this.held = "";
    if (rest !== "") await this.target.append({ markdown_text: rest });
  }
}
