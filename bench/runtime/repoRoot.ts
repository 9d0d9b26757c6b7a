/** The checkout being measured: npm scripts run from the package root. */
export const repoRoot = process.cwd();
