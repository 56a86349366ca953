import { z } from 'zod';
import { OIDC_PROVIDER_ID_PATTERN, USER_TYPES } from '../constants';
import { PANEL_PARTICIPANT_ID_KEYS } from '../pseudonyms';
import { Empty, Message, VALIDATION_TEXTS, email, opaqueToken, requiredText, returnPath } from '../fields';
import { defineRoutes } from '../route';
import { PanelIds } from './participation.routes';

export const User = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  type: z.enum(USER_TYPES),
});
export type User = z.infer<typeof User>;

export const Participant = z.object({ email: z.string(), name: z.string() });
export type Participant = z.infer<typeof Participant>;

/** An OpenID Connect provider of the login screen: its id (in /oidc/start) and its button's label. */
export const SignInProvider = z.object({ id: z.string(), label: z.string() });
export type SignInProvider = z.infer<typeof SignInProvider>;

const oidcProviderId = () =>
  z
    .string({ error: VALIDATION_TEXTS.empty })
    .regex(OIDC_PROVIDER_ID_PATTERN, 'must be a provider id: lowercase letters, digits and hyphens');

export const TokenPair = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof TokenPair>;

export const authRoutes = defineRoutes({
  magicLogin: {
    method: 'POST',
    path: '/auth/magiclogin',
    service: 'auth',
    access: 'public',
    summary:
      'Mails a single-use sign-in link to `destination`. The answer is the same whether or not the address has an account. `next` (ours: a path of this app, such as a join link) is where the link opens after signing in.',
    request: z.object({ destination: email(VALIDATION_TEXTS.loginEmail), next: returnPath().optional() }),
    answer: Message,
  },
  setNewUser: {
    method: 'POST',
    path: '/setNewUser',
    service: 'auth',
    access: 'public',
    summary:
      "Creates an account and signs it in. `token`, a magic link's token of that e-mail (the link's callback answers SIGNUP_REQUIRED and keeps it unused), proves the address: without a usable one the answer is 401, checked first, so nobody learns whether an e-mail has an account without owning it. With it: researcher only if RESEARCHER_EMAILS allows the address (403), and refused when the e-mail already has an account (409). The tokens are also set as HttpOnly cookies (see /getUserTokens).",
    request: z.object({
      email: email(VALIDATION_TEXTS.signupEmail),
      name: requiredText(VALIDATION_TEXTS.signupName, 200),
      type: z.enum(USER_TYPES, { error: 'must be researcher or participant' }).default('participant'),
      token: opaqueToken().optional(),
    }),
    answer: TokenPair,
  },
  enterThroughLink: {
    method: 'POST',
    path: '/enterThroughLink',
    service: 'auth',
    access: 'public',
    extension: true,
    summary: `A participant enters through a session's join link without an e-mail: signed in (tokens, also as cookies) as the participant the link's panel id names (the first of ${PANEL_PARTICIPANT_ID_KEYS.join(', ')} in panelIds; the same id through any link of the same researcher is the same participant), or as a new pseudonymous participant when the link carries none. No e-mail, no magic link, no user type to choose; the page then joins the session (joinSession) with the same token and ids. An unknown or revoked token: 404; an ended session: 409 SESSION_ENDED; too many entries from one address: 429.`,
    request: z.object({ token: opaqueToken(), panelIds: PanelIds.default({}) }),
    answer: TokenPair,
  },
  getUserTokens: {
    method: 'GET',
    path: '/getUserTokens',
    service: 'auth',
    access: 'public',
    summary:
      "Trades a magic link's token for tokens (single use). For an e-mail without an account the token is kept and the answer is 404 SIGNUP_REQUIRED, so /setNewUser can use it. The tokens are also set as cookies (ours): accessToken and refreshToken HttpOnly, SameSite=Lax, Secure over https, the refresh token's for its lifetime, and beside them the readable signedIn cookie, holding only the access token's expiry (epoch seconds). The web app (its X-Requested-With: uis header) keeps the refresh token in its cookie only: its answer's refreshToken is empty.",
    request: z.object({ email: email(), token: opaqueToken() }),
    answer: TokenPair,
  },
  getUserFromToken: {
    method: 'GET',
    path: '/getUserFromToken',
    service: 'auth',
    access: 'user',
    tokenInQuery: true,
    summary: 'The signed-in user. The access token comes as the query parameter (spec) or the bearer header.',
    request: z.object({ accessToken: z.string().optional() }),
    answer: z.object({ user: User }),
  },
  getAccessTokenFromRefreshToken: {
    method: 'POST',
    path: '/getAccessTokenFromRefreshToken',
    service: 'auth',
    access: 'public',
    summary:
      "Rotates a refresh token: answers a new access token and a new refresh token, and sets them as cookies (see /getUserTokens). Presenting a refresh token that was already rotated revokes every token of that login. Without `refreshToken` (ours), the refreshToken cookie's is rotated, only with the web app's X-Requested-With: uis header (a cookie alone could be sent by another site); the answer's refreshToken is then empty, so no script ever reads it, and its accessToken is what a live connection renews with (renewToken). A refused cookie is cleared.",
    request: z.object({ refreshToken: opaqueToken().optional() }),
    answer: TokenPair,
  },
  getSignInProviders: {
    method: 'GET',
    path: '/getSignInProviders',
    service: 'auth',
    access: 'public',
    extension: true,
    summary:
      "The OpenID Connect providers this deployment signs in with (Google, a university's), each with its button's label; none when only magic links are configured.",
    request: Empty,
    answer: z.object({ providers: z.array(SignInProvider) }),
  },
  oidcStart: {
    method: 'GET',
    path: '/oidc/start',
    service: 'auth',
    access: 'public',
    extension: true,
    produces: 'redirect',
    summary:
      'Starts a sign-in with an OpenID Connect provider (a browser navigation, not a fetch): the authorization code flow with PKCE, its state, nonce and code verifier kept in a signed, short-lived cookie; redirects to the provider, or to /login with signInError when the provider is unknown or unreachable.',
    request: z.object({ provider: oidcProviderId() }),
    answer: Empty,
  },
  oidcCallback: {
    method: 'GET',
    path: '/oidc/callback',
    service: 'auth',
    access: 'public',
    extension: true,
    produces: 'redirect',
    summary:
      "Where the provider sends the browser back: the state must match the cookie's, the code is exchanged with the PKCE verifier, the ID token is checked (signature, issuer, audience, nonce). A provider account (issuer and subject) linked before signs into its user whatever e-mail it sends now. A new one may use its verified e-mail (taken from the ID token, or from userinfo with the same subject, never mixed) only where the provider is trusted for that domain (OIDC_<ID>_EMAIL_DOMAINS, GOOGLE_EMAIL_DOMAINS): then the app's /authcallback page gets a single-use sign-in token for it, as a magic link would, and the account is linked once it is used. Elsewhere a sign-in link is mailed to the address, which links the account when followed in this browser (signInError=linkSent). Any failure redirects to /login with signInError (see SIGN_IN_PROVIDER_MESSAGES).",
    request: z.object({
      state: z.string().max(512).optional(),
      code: z.string().max(4096).optional(),
      error: z.string().max(256).optional(),
      error_description: z.string().max(1024).optional(),
      iss: z.string().max(1024).optional(),
    }),
    answer: Empty,
  },
  logout: {
    method: 'POST',
    path: '/logout',
    service: 'auth',
    access: 'public',
    extension: true,
    summary:
      "Revokes the refresh token and every token rotated from it (the spec only drops the cookie), and clears the token cookies. Without `refreshToken`, the refreshToken cookie's, with the web app's X-Requested-With: uis header.",
    request: z.object({ refreshToken: opaqueToken().optional() }),
    answer: Message,
  },
  deleteUser: {
    method: 'POST',
    path: '/deleteUser',
    service: 'auth',
    access: 'user',
    summary:
      "Deletes the caller's own account, after the services that hold their data removed it; revokes their tokens. `email` must be the caller's.",
    request: z.object({ email: email() }),
    answer: Message,
  },
  getAllParticipants: {
    method: 'GET',
    path: '/getAllParticipants',
    service: 'auth',
    access: 'researcher',
    summary:
      "Participants directory for the session scope picker: the participants with an account whom the caller's own sessions name in a scope or list as joined (researchers only, and only their own people: e-mails are personal data). Anyone else is added to a scope by typing their address.",
    request: Empty,
    answer: z.object({ participants: z.array(Participant) }),
  },
});
