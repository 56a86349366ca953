import { describe, expect, it } from 'vitest';
import { peerOptionsFor } from './peer-options';
import { settings } from './testing/call-fakes';

describe('peerOptionsFor', () => {
  it('reaches the call server on the page’s own origin, TLS on https', () => {
    expect(
      peerOptionsFor(settings, { hostname: 'uis.example.org', port: '', protocol: 'https:' }),
    ).toMatchObject({
      host: 'uis.example.org',
      port: 443,
      secure: true,
      path: '/stream',
      pingInterval: 5000,
    });
  });
});
