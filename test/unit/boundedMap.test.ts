import { describe, expect, it } from "vitest";
import { BoundedMap } from "../../src/platform/boundedMap";

describe("BoundedMap", () => {
  it("keeps at most `max` entries: past it the least recently set goes", () => {
    const map = new BoundedMap<string, number>(3);
    map.set("a", 1).set("b", 2).set("c", 3);
    map.set("a", 10); // a is now the newest
    map.set("d", 4);
    expect(map.size).toBe(3);
    expect(map.has("b")).toBe(false);
    expect([...map.all()]).toEqual([
      ["c", 3],
      ["a", 10],
      ["d", 4],
    ]);
  });

  it("within the bound it is a plain map", () => {
    const map = new BoundedMap<number, string>(100);
    for (let i = 0; i < 100; i++) map.set(i, `v${i}`);
    expect(map.size).toBe(100);
    expect(map.get(0)).toBe("v0");
    expect(map.delete(0)).toBe(true);
    expect(map.get(0)).toBeUndefined();
    expect(map.size).toBe(99);
  });

  it("drops the oldest entries that are expired when a key is set, and stops at the first live one", () => {
    const map = new BoundedMap<string, number>(100, (until, now) => until <= now);
    map.set("past", 5, 0).set("live", 50, 0).set("past-but-newer", 6, 0);
    map.set("new", 100, 10);
    // "past" went; "past-but-newer" waits behind the live "live" until that one goes too.
    expect([...map.all()].map(([key]) => key)).toEqual(["live", "past-but-newer", "new"]);
    map.set("later", 200, 60);
    expect([...map.all()].map(([key]) => key)).toEqual(["new", "later"]);
  });

  it("refuses a bound below one", () => {
    expect(() => new BoundedMap(0)).toThrow(RangeError);
  });
});
