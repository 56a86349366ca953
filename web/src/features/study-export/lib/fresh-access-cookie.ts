/** Renewed this long before it expires: a download must not start with a cookie that is about to lapse. */
const RENEW_BEFORE_MS = 30_000;

/**
 * Whether an access token is missing, or expires within RENEW_BEFORE_MS (an unreadable one is left to
 * the server to judge). The same rule as the call's registration (live-session's call-area), which
 * also sends nothing but the cookie.
 */
export function expiresSoon(token: string | undefined, now = Date.now()): boolean {
  const payload = token?.split('.')[1];
  if (!payload) return true;
  try {
    const { exp } = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof exp === 'number' && exp * 1000 - now < RENEW_BEFORE_MS;
  } catch {
    return false;
  }
}
