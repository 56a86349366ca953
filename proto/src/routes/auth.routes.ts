import { z } from 'zod';
import { USER_TYPES } from '../constants';
import { Empty, Message, VALIDATION_TEXTS, email, opaqueToken, requiredText } from '../fields';
import { defineRoutes } from '../route';

export const User = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  type: z.enum(USER_TYPES),
});
export type User = z.infer<typeof User>;

export const Participant = z.object({ email: z.string(), name: z.string() });
export type Participant = z.infer<typeof Participant>;

export const TokenPair = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof TokenPair>;

export const authRoutes = defineRoutes({
  magicLogin: {
    method: 'POST',
    path: '/auth/magiclogin',
    service: 'auth',
    access: 'public',
    summary:
      'Mails a single-use sign-in link to `destination`. The answer is the same whether or not the address has an account.',
    request: z.object({ destination: email(VALIDATION_TEXTS.loginEmail) }),
    answer: Message,
  },
  setNewUser: {
    method: 'POST',
    path: '/setNewUser',
    service: 'auth',
    access: 'public',
    summary:
      'Creates an account and signs it in. Refused for an e-mail that already has one. `token` (from a magic link of that e-mail) proves the address; it is required for researcher accounts, and for every account when SIGNUP_EMAIL_PROOF=always.',
    request: z.object({
      email: email(VALIDATION_TEXTS.signupEmail),
      name: requiredText(VALIDATION_TEXTS.signupName, 200),
      type: z.enum(USER_TYPES, { error: 'must be researcher or participant' }).default('participant'),
      token: opaqueToken().optional(),
    }),
    answer: TokenPair,
  },
  getUserTokens: {
    method: 'GET',
    path: '/getUserTokens',
    service: 'auth',
    access: 'public',
    summary:
      "Trades a magic link's token for tokens (single use). For an e-mail without an account the token is kept and the answer is 404 SIGNUP_REQUIRED, so /setNewUser can use it.",
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
      'Rotates a refresh token: answers a new access token and a new refresh token. Presenting a refresh token that was already rotated revokes every token of that login.',
    request: z.object({ refreshToken: opaqueToken() }),
    answer: TokenPair,
  },
  logout: {
    method: 'POST',
    path: '/logout',
    service: 'auth',
    access: 'public',
    extension: true,
    summary: 'Revokes the refresh token and every token rotated from it (the spec only drops the cookie).',
    request: z.object({ refreshToken: opaqueToken() }),
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
      'Participants directory for the session scope picker (researchers only: e-mails are personal data).',
    request: Empty,
    answer: z.object({ participants: z.array(Participant) }),
  },
});
