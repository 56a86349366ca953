/**
 * `@uis/auth/testing`: the test OpenID Connect provider (oidc-provider.mjs), which the web app's
 * browser tests start too, so both sign in against the same provider.
 */
export { OIDC_PROVIDER_SCRIPT } from './oidc-test-provider';
