import installationsSchema from "../../migrations/installations/0001_installations.sql";
import redeemedStatesSchema from "../../migrations/installations/0002_redeemed_states.sql";
import userTokenExpirySchema from "../../migrations/installations/0003_user_token_expiry.sql";
import type { Migration } from "../platform/sql/migrations";

/** The installation store's schema changes, in order, applied by the shards' runner. */
export const INSTALLATION_MIGRATIONS: readonly Migration[] = [
  { id: 1, name: "0001_installations", sql: installationsSchema },
  { id: 2, name: "0002_redeemed_states", sql: redeemedStatesSchema },
  { id: 3, name: "0003_user_token_expiry", sql: userTokenExpirySchema },
];
