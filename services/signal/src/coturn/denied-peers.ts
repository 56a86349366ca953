/**
 * The peer addresses coturn must never relay to, whoever asks: a relay is a way into the network
 * coturn runs in (its host's loopback, the cluster, the campus), so every address that is not on
 * the public internet is refused (RFC 6890's special-purpose registries, and IPv6 forms that carry
 * an IPv4 address inside). The one list for compose, Kubernetes and `npm run stack`; the deployment
 * tests check that docker-compose.yml and k8s/turn/coturn.yaml pass exactly these.
 */
export const DENIED_PEER_RANGES = [
  // IPv4: "this network", private, carrier-grade NAT, loopback, link-local, protocol assignments,
  // documentation, 6to4 relay, benchmarking, multicast, reserved and broadcast.
  '0.0.0.0-0.255.255.255',
  '10.0.0.0-10.255.255.255',
  '100.64.0.0-100.127.255.255',
  '127.0.0.0-127.255.255.255',
  '169.254.0.0-169.254.255.255',
  '172.16.0.0-172.31.255.255',
  '192.0.0.0-192.0.0.255',
  '192.0.2.0-192.0.2.255',
  '192.88.99.0-192.88.99.255',
  '192.168.0.0-192.168.255.255',
  '198.18.0.0-198.19.255.255',
  '198.51.100.0-198.51.100.255',
  '203.0.113.0-203.0.113.255',
  '224.0.0.0-255.255.255.255',
  // IPv6: loopback, IPv4-mapped, NAT64 (well-known and local), discard, documentation, 6to4, unique
  // local, link-local, multicast. (Not '::' alone: coturn reads it as every address, and refuses the
  // unspecified address anyway.)
  '::1',
  '::ffff:0.0.0.0-::ffff:255.255.255.255',
  '64:ff9b::-64:ff9b::ffff:ffff',
  '64:ff9b:1::-64:ff9b:1:ffff:ffff:ffff:ffff:ffff',
  '100::-100::ffff:ffff:ffff:ffff',
  '2001:db8::-2001:db8:ffff:ffff:ffff:ffff:ffff:ffff',
  '2002::-2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  'fc00::-fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  'fe80::-febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  'ff00::-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
] as const;

/**
 * coturn's options that keep relays to public peers over UDP: the denied ranges, no multicast peers,
 * and no TCP relay (RFC 6062: a browser never asks for one; it would reach TCP services).
 */
export const PEER_RESTRICTIONS: readonly string[] = [
  '--no-multicast-peers',
  '--no-tcp-relay',
  ...DENIED_PEER_RANGES.map((range) => `--denied-peer-ip=${range}`),
];
