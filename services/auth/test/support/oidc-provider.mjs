// A real OpenID Connect provider for the tests (the `oidc-provider` package, certified by the
// OpenID Foundation), in a process of its own: the package is an ES module, and a provider is
// another party anyway. Its login form takes any account id of OIDC_TEST_ACCOUNTS and any
// password; consent is granted by itself. Configured by environment:
//   PORT                  where it listens (127.0.0.1); the issuer is http://127.0.0.1:PORT
//   OIDC_TEST_CLIENT      JSON: { client_id, client_secret, redirect_uris }
//   OIDC_TEST_ACCOUNTS    JSON: { "<account id>": { email, email_verified, name, ... } }
// An account's `sub` is its id. Besides email, email_verified and name it may have Microsoft Entra
// ID's `xms_edov`, and `id_token` and `userinfo`: claims only that answer has instead (null: none).
// `PUT /test/accounts/<id>` with an account as JSON changes or adds one (a provider's user changing
// their e-mail). It prints "ready <issuer>" once it listens.
import http from 'node:http';
import Provider from 'oidc-provider';

const port = Number(process.env.PORT);
const client = JSON.parse(process.env.OIDC_TEST_CLIENT ?? '{}');
const accounts = JSON.parse(process.env.OIDC_TEST_ACCOUNTS ?? '{}');
const issuer = `http://127.0.0.1:${port}`;

const provider = new Provider(issuer, {
  clients: [{ ...client, response_types: ['code'], grant_types: ['authorization_code'] }],
  pkce: { required: () => true },
  claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name'] },
  // The claims go in the ID token too (as Google's do), not only in the userinfo answer.
  conformIdTokenClaims: false,
  findAccount: (_ctx, id) =>
    accounts[id] ? { accountId: id, claims: (use) => claimsOf(accounts[id], use) } : undefined,
  // Consent is not what is tested: every client is granted what it asks.
  async loadExistingGrant(ctx) {
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ['a test provider’s cookie key'] },
});
// Errors are the tests' business; the provider's own warnings would only fill their output.
provider.on('server_error', (_ctx, error) => console.error(error));

/** What the ID token (`use` id_token) or the userinfo answer says of an account. */
function claimsOf({ id_token: idToken, userinfo, ...claims }, use) {
  const all = { ...claims, ...(use === 'id_token' ? idToken : userinfo) };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== null));
}

const answer = provider.callback();
const server = http.createServer((req, res) => {
  const changed = req.method === 'PUT' && /^\/test\/accounts\/([^/]+)$/.exec(req.url ?? '');
  if (!changed) return answer(req, res);
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    accounts[decodeURIComponent(changed[1])] = JSON.parse(body);
    res.writeHead(204).end();
  });
});
server.listen(port, '127.0.0.1', () => console.log(`ready ${issuer}`));
process.on('SIGTERM', () => process.exit(0));
