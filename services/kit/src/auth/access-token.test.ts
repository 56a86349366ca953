import { signAccessToken, verifyAccessToken } from './access-token';

const SECRET = 'k'.repeat(40);
const user = {
  id: '7d9f0c52-7c0e-4c3f-9a53-3d4f3f1f0c11',
  email: 'Ada.Lovelace@Lab.TEST',
  name: 'Ada',
  type: 'researcher' as const,
  loginId: '0b1f2f6e-55a4-4b0c-9d39-7f1a2e3c4d5e',
};

describe('access tokens', () => {
  it('carry the user, the login and the times, with the e-mail lower-cased once, here', () => {
    const before = Date.now();
    const verified = verifyAccessToken(SECRET, signAccessToken(SECRET, user, 60));
    expect(verified?.user).toEqual({ ...user, email: 'ada.lovelace@lab.test' });
    expect(verified!.issuedAt).toBeGreaterThanOrEqual(before);
    expect(verified!.issuedAt).toBeLessThanOrEqual(Date.now());
    expect(verified!.expiresAt - verified!.issuedAt).toBeCloseTo(60_000, -1);
  });

  it('refuse what another secret signed, and what expired', () => {
    expect(verifyAccessToken(SECRET, signAccessToken('x'.repeat(40), user, 60))).toBeNull();
    expect(verifyAccessToken(SECRET, signAccessToken(SECRET, user, -1))).toBeNull();
  });
});
