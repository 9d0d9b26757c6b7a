// A stand-in for the OpenAI Agents SDK's `tool()` (no zod parameters, no model): the tools keep
// the sample's names, descriptions and `execute` bodies, and the local agent calls them itself.
import type { CaseyDeps } from "./deps";

export interface Tool<A> {
  name: string;
  description: string;
  execute(args: A, context?: { context: CaseyDeps }): Promise<string>;
}

export function tool<A>(definition: Tool<A>): Tool<A> {
  return definition;
}
