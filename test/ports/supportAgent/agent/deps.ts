// agent/deps.js of Slack's bolt-js-support-agent (openai-agents-sdk), ported.
import type { SlackWebClient } from "../../../../src/lib";

/** Dependencies passed to the Casey agent as run context. */
export class CaseyDeps {
  constructor(
    public client: SlackWebClient,
    public userId: string,
    public channelId: string,
    public threadTs: string,
    public messageTs: string,
    public userToken: string | undefined = undefined,
  ) {}
}
