import { clientKey, inboxKey } from './limit-keys';

describe('inboxKey', () => {
  it('counts the spellings of one Gmail inbox as one: case, dots, +tags, googlemail.com', () => {
    for (const spelling of [
      'ada.lovelace@gmail.com',
      'AdaLovelace+x@Gmail.com',
      'a.d.a.lovelace+1@googlemail.com',
    ])
      expect(inboxKey(spelling)).toBe('adalovelace@gmail.com');
  });

  it('drops a +tag everywhere, but keeps dots where they make another mailbox', () => {
    expect(inboxKey('ada+news@outlook.com')).toBe('ada@outlook.com');
    expect(inboxKey('ada.l+1@uni.edu')).toBe('ada.l@uni.edu');
    expect(inboxKey('ada.l@hotmail.com')).not.toBe(inboxKey('adal@hotmail.com'));
    expect(inboxKey('ada@hotmail.com')).not.toBe(inboxKey('ada@outlook.com'));
  });

  it('counts Proton’s domains as one, without dots, hyphens and underscores', () => {
    expect(inboxKey('ada_l-x.y+z@pm.me')).toBe('adalxy@proton.me');
    expect(inboxKey('adalxy@protonmail.com')).toBe('adalxy@proton.me');
  });
});

describe('clientKey', () => {
  it('keeps an IPv4 address, and reads an IPv4-mapped IPv6 address as it', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64', () => {
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });
});
