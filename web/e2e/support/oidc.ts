/// <reference types="node" />

/** The e2e stack's university sign-in: the provider auth is configured with (global-setup.ts). */
export const OIDC_TEST_PROVIDER = {
  id: 'testuni',
  label: 'Sign in with Test University',
  clientId: 'uis-e2e',
  clientSecret: 'an e2e client secret',
  /**
   * OIDC_TESTUNI_EMAIL_DOMAINS: the accounts' domain, so a new account signs up at once (any other
   * domain is first proven by a mailed link: services/auth/README.md).
   */
  emailDomains: 'example.org',
} as const;

/** The provider's accounts: its login form takes the account id and any password. */
export const OIDC_TEST_ACCOUNTS = {
  'oidc-rhea': { email: 'oidc-rhea@example.org', email_verified: true, name: 'Rhea Oidc' },
  'oidc-sam': { email: 'oidc-sam@example.org', email_verified: true, name: 'Sam Oidc' },
  'oidc-eve': { email: 'oidc-eve@example.org', email_verified: false, name: 'Eve Unverified' },
  'oidc-pia': { email: 'oidc-pia@example.org', email_verified: true, name: 'Pia Oidc' },
} as const;
export type OidcTestAccount = keyof typeof OIDC_TEST_ACCOUNTS;
