/**
 * `work`, or what `onLate` returns (or throws) once `ms` have passed, whichever comes first. The
 * timer never outlives the race; losing it does not cancel `work`.
 */
export function settleWithin<T, L>(work: Promise<T>, ms: number, onLate: () => L): Promise<T | L> {
  let cancel = () => {};
  const late = new Promise<L>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        try {
          resolve(onLate());
        } catch (error) {
          reject(error);
        }
      },
      Math.max(0, ms),
    );
    cancel = () => clearTimeout(timer);
  });
  return Promise.race([work, late]).finally(cancel);
}
