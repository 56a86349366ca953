/** The fields of an edit that were sent: an absent field keeps its value rather than becoming null. */
export const definedOnly = <T extends object>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
