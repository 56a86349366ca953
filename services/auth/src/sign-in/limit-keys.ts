import { isIPv4, isIPv6 } from 'node:net';

/** Mail providers whose addresses are one inbox however the name is dotted (and hyphenated). */
const IGNORED_IN_NAME: ReadonlyArray<[RegExp, ReadonlySet<string>]> = [
  // Gmail: dots never count (googlemail.com is the same mailbox, below).
  [/\./g, new Set(['gmail.com'])],
  // Proton: dots, hyphens and underscores do not count.
  [/[._-]/g, new Set(['proton.me'])],
];

/** Domains that are one provider's other names for the same mailboxes. */
const SAME_MAILBOXES: Readonly<Record<string, string>> = {
  'googlemail.com': 'gmail.com',
  'protonmail.com': 'proton.me',
  'protonmail.ch': 'proton.me',
  'pm.me': 'proton.me',
};

/**
 * The inbox an address delivers to, as the sign-in and invitation limits count it (never stored as
 * anyone's e-mail). A `+tag` is dropped at every domain: Gmail, Outlook.com/Hotmail/Live, iCloud,
 * Fastmail and Proton deliver `name+tag` to `name`, and so do Google Workspace and Microsoft 365 by
 * default (most universities); where `name+tag` is a mailbox of its own, it only shares a budget.
 * Dots count nowhere at Gmail; dots, hyphens and underscores nowhere at Proton; googlemail.com is
 * gmail.com and Proton's domains are one.
 */
export function inboxKey(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 1) return address;
  const domain = address.slice(at + 1);
  const mailboxes = SAME_MAILBOXES[domain] ?? domain;
  let name = address.slice(0, at).split('+')[0] || address.slice(0, at);
  for (const [ignored, domains] of IGNORED_IN_NAME)
    if (domains.has(mailboxes)) name = name.replace(ignored, '');
  return `${name}@${mailboxes}`;
}

/**
 * The client as the per-address limits count it: an IPv4 address as it is (an IPv4-mapped IPv6
 * address as its IPv4), an IPv6 address by its /64, the least one subscriber gets: every address
 * of it is one client, or each would have a budget of its own.
 */
export function clientKey(address: string): string {
  const ip = address.replace(/%.*$/, '');
  if (!isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two). */
function ipv6Groups(ip: string): number[] {
  const parse = (part: string): number[] =>
    part
      ? part.split(':').flatMap((group) => {
          if (!isIPv4(group)) return [parseInt(group, 16)];
          const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        })
      : [];
  const [head = '', tail] = ip.split('::');
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
