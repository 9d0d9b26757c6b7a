/** Minutes since the epoch: the unit shard metrics, the fleet overview and the watch's answer window count in. */
export const minuteOf = (at: number) => Math.floor(at / 60_000);
