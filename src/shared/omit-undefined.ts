/** What `exactOptionalPropertyTypes` accepts for optional properties: `value` without its undefined fields. */
export type DefinedFields<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

/**
 * A copy of `value` without the fields that are undefined, so a value that may be absent can be passed to an
 * optional property (e.g. a component prop) without writing `{...(x !== undefined && { x })}` for each.
 */
export function omitUndefined<T extends object>(value: T): DefinedFields<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, field]) => field !== undefined),
  ) as DefinedFields<T>;
}
