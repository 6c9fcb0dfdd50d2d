/**
 * The new list with each element that did not change replaced by the previous one (same id, same JSON), so
 * memoized rows skip re-rendering when a refresh brought 500 items of which one moved.
 */
export function keepUnchanged<T extends { id: string }>(previous: readonly T[], next: readonly T[]): T[] {
  const before = new Map(previous.map((element) => [element.id, element]));
  return next.map((element) => {
    const old = before.get(element.id);
    return old !== undefined && JSON.stringify(old) === JSON.stringify(element) ? old : element;
  });
}
