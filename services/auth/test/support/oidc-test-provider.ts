import { freePort } from '@uis/kit/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** The script, whether the tests run from sources or from dist/. */
export const OIDC_PROVIDER_SCRIPT = path.join(
  __dirname.replace(`${path.sep}dist${path.sep}`, path.sep),
  'oidc-provider.mjs',
);

/** An account's claims (oidc-provider.mjs): null leaves a claim out. */
type TestClaims = Partial<Record<'email' | 'email_verified' | 'xms_edov' | 'name', string | boolean | null>>;

export interface TestAccount extends TestClaims {
  /** Claims only the ID token has (or lacks, as null) instead. */
  id_token?: TestClaims;
  /** Claims only the userinfo answer has (or lacks, as null) instead. */
  userinfo?: TestClaims;
}

export interface OidcTestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Changes (or adds) an account: its user changed their e-mail there, say. */
  setAccount(id: string, account: TestAccount): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The test's own OpenID Connect provider (oidc-provider.mjs) on a free port, with one client whose
 * redirect URI is `redirectUri` and these accounts (login: the account id, any password).
 */
export async function startOidcProvider(
  redirectUri: string,
  accounts: Record<string, TestAccount>,
): Promise<OidcTestProvider> {
  const port = await freePort();
  const client = {
    client_id: 'uis-test',
    client_secret: 'a test client secret',
    redirect_uris: [redirectUri],
  };
  const child: ChildProcess = spawn(process.execPath, [OIDC_PROVIDER_SCRIPT], {
    env: {
      ...process.env,
      PORT: String(port),
      OIDC_TEST_CLIENT: JSON.stringify(client),
      OIDC_TEST_ACCOUNTS: JSON.stringify(accounts),
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const issuer = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready (\S+)/.exec(output);
      if (ready) resolve(ready[1]!);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the OIDC test provider exited (${code}):\n${output}`)));
  });
  return {
    issuer,
    clientId: client.client_id,
    clientSecret: client.client_secret,
    async setAccount(id, account) {
      const res = await fetch(`${issuer}/test/accounts/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: JSON.stringify(account),
      });
      if (res.status !== 204) throw new Error(`the OIDC test provider answered ${res.status}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The env that configures auth with this provider as `id`. */
export const providerEnv = (id: string, provider: OidcTestProvider, label = 'Test University') => {
  const key = id.toUpperCase().replace(/-/g, '_');
  return {
    [`OIDC_${key}_ISSUER`]: provider.issuer,
    [`OIDC_${key}_CLIENT_ID`]: provider.clientId,
    [`OIDC_${key}_CLIENT_SECRET`]: provider.clientSecret,
    [`OIDC_${key}_LABEL`]: label,
  };
};

/** A browser's cookies, as much as these flows need: by name, whatever the host's port or path. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(setCookie: string[] | string | undefined): void {
    for (const line of [setCookie ?? []].flat()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * A browser at the provider: follows its redirects from `authorizeUrl` through its login form
 * (signing in as `login`, or cancelling) until it sends the browser away from the provider; answers
 * where to (the client's redirect URI with the code, or the error).
 */
export async function signInAtProvider(
  authorizeUrl: string,
  login: string,
  { cancel = false }: { cancel?: boolean } = {},
): Promise<URL> {
  const jar = new CookieJar();
  const origin = new URL(authorizeUrl).origin;
  let next = new URL(authorizeUrl);
  let body: URLSearchParams | undefined;
  for (let hops = 0; hops < 10; hops += 1) {
    if (next.origin !== origin) return next;
    const res = await fetch(next, {
      method: body ? 'POST' : 'GET',
      headers: {
        cookie: jar.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
      redirect: 'manual',
    });
    jar.take(res.headers.getSetCookie());
    body = undefined;
    const location = res.headers.get('location');
    if (location) {
      next = new URL(location, next);
      continue;
    }
    const page = await res.text();
    const form = /<form[^>]*action="([^"]+)"/.exec(page);
    if (res.status !== 200 || !form)
      throw new Error(`the provider answered ${res.status}: ${page.slice(0, 500)}`);
    if (cancel) {
      next = new URL(`${next.pathname.replace(/\/$/, '')}/abort`, next);
      continue;
    }
    next = new URL(form[1]!, next);
    body = new URLSearchParams({ prompt: 'login', login, password: 'any password' });
  }
  throw new Error('the provider kept redirecting');
}
