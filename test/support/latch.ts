/** A promise and its resolver, for a run the test holds in the middle of its work. */
export function latch<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}
