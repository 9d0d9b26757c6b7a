// The repository's tests and bench build Slack's deliveries with the public test kit's templates (src/testing/).
export * from "../../src/testing/deliveries";
