/**
 * Holm's (1979) step-down adjustment, as R's `p.adjust(p, "holm")`: sorted ascending, the
 * i-th smallest of m p-values becomes max over j <= i of (m − j + 1)·p(j), capped at 1.
 * A missing p (a metric whose test could not be computed) stays missing and is not counted
 * in m, as in R, where NAs are removed before m is taken.
 */
export function holm(pValues: readonly (number | null)[]): (number | null)[] {
  const present = pValues.flatMap((p, index) => (p === null ? [] : [{ p, index }]));
  const m = present.length;
  const adjusted = pValues.map(() => null as number | null);
  let running = 0;
  [...present]
    .sort((a, b) => a.p - b.p)
    .forEach(({ p, index }, rank) => {
      running = Math.max(running, (m - rank) * p);
      adjusted[index] = Math.min(1, running);
    });
  return adjusted;
}
