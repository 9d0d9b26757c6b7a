/**
 * Custom workflow steps (`app.function`): the match of `function_executed`, the execution a
 * delivery belongs to, a run's `complete` / `fail`, the `completeError` a parked step sends, and
 * where a step's token travels (sealed at rest). Their payload types are with the listeners'.
 */
export { completeFunction, functionCompletion, functionParked } from "./functionCompletion";
export { functionMatch } from "./functionMatch";
export { plainFunctionToken, rawWithoutToken, sealedFunctionTokenOf, withSealedFunctionToken } from "./functionToken";
