/** Signing secrets the Worker under test is configured with (see vitest.config.ts). */
export const TEST_SIGNING_SECRET = "test-signing-secret";
export const TEST_PREVIOUS_SIGNING_SECRET = "test-previous-signing-secret";
