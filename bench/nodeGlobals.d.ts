// src/slack/verifySignature.ts (shared with the simulator) names the Web Crypto key type as the
// Workers runtime declares it; in Node it lives under node:crypto's webcrypto.
type CryptoKey = import("node:crypto").webcrypto.CryptoKey;
