/** Result markers of every REST answer (spec section 4). Zod-free: the browser bundles it. */
export const STATUS = { SUCCESS: 'SUCCESS', ERROR: 'ERROR' } as const;
export type Status = (typeof STATUS)[keyof typeof STATUS];
