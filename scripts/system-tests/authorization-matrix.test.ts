import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { TINY_MP4 } from '@uis/kit/testing';
import { routeList, routes, type RouteDef, type RouteName } from '@uis/proto';
import { mailedLink, signUp, startComposedStack, type ComposedStack } from './support/composed-stack';

/**
 * Every REST route of proto's table, called as each kind of caller, against the composed services:
 * the answer must be success for the callers the matrix allows, 403 for other signed-in callers and
 * 401 for anonymous ones (public routes: success for everyone). A route without an entry fails.
 * The session asks for consent: participantIn agreed, participantPending (in its scope too) did not,
 * and gets what participantIn gets except the session's data (CONSENT_GATED: 403 CONSENT_REQUIRED).
 */

const ACTORS = [
  'anonymous',
  'participantIn',
  'participantPending',
  'participantOut',
  'otherResearcher',
  'owner',
] as const;
type Actor = (typeof ACTORS)[number];
type Person = Exclude<Actor, 'anonymous'>;
const PEOPLE: readonly Person[] = [
  'participantIn',
  'participantPending',
  'participantOut',
  'otherResearcher',
  'owner',
];

/** The routes of a session's data: the one consent rule refuses a participant who has not agreed. */
const CONSENT_GATED: ReadonlySet<RouteName> = new Set<RouteName>([
  'getActions',
  'getVideoInfo',
  'videoAsset',
  'getMessages',
  'addMessage',
  'saveDeviceCheck',
  'getCallSettings',
]);

const MP4 = fs.readFileSync(TINY_MP4);

interface World {
  stack: ComposedStack;
  people: Record<Person, { email: string; id: string; accessToken: string }>;
  groupId: string;
  sessionId: string;
  actionId: string;
  promptId: string;
  messageId: string;
  pixelId: string;
  videoName: string;
  /** A chat session like the shared one (consent asked, participantIn agreed). */
  chatSessionId: string;
  /** Calls a route as the owner and answers its `res` (for fresh targets of destructive calls). */
  asOwner(name: RouteName, input: Record<string, unknown>): Promise<Record<string, unknown>>;
}

type Input = Record<string, unknown>;
interface Entry {
  /** Who succeeds; other signed-in callers get 403 and anonymous 401. `everyone`: a public route. */
  allowed: readonly Person[] | 'everyone';
  /** A valid request, built fresh for each call where the call uses its target up. */
  input: (world: World, actor: Actor) => Input | Promise<Input>;
}

const signedIn = PEOPLE;
const researchers: readonly Person[] = ['owner', 'otherResearcher'];
const owner: readonly Person[] = ['owner'];
const members: readonly Person[] = ['owner', 'participantIn'];
const participantIn: readonly Person[] = ['participantIn'];
let fresh = 0;
const freshEmail = (actor: Actor) => `${actor.toLowerCase()}-${++fresh}@fresh.test`;
const pad = (n: number) => String(n).padStart(2, '0');
/** A start time no other prompt of the session has (one prompt per second). */
const freshTime = () => {
  const n = ++fresh;
  return `01:${pad(Math.floor(n / 60) % 60)}:${pad(n % 60)}`;
};

const MATRIX: Record<RouteName, Entry> = {
  // auth
  magicLogin: { allowed: 'everyone', input: (_, actor) => ({ destination: freshEmail(actor) }) },
  setNewUser: {
    allowed: 'everyone',
    input: async (w, actor) => {
      const email = freshEmail(actor);
      const token = (await mailedLink(w.stack, email)).searchParams.get('token');
      return { email, name: 'Fresh', token };
    },
  },
  getUserTokens: {
    allowed: 'everyone',
    input: async (w, actor) => {
      const email = freshEmail(actor);
      await signUp(w.stack, email, 'Returning');
      const link = await mailedLink(w.stack, email);
      return { email, token: link.searchParams.get('token') };
    },
  },
  getAccessTokenFromRefreshToken: {
    allowed: 'everyone',
    input: async (w, actor) => ({
      refreshToken: (await signUp(w.stack, freshEmail(actor), 'R')).refreshToken,
    }),
  },
  logout: { allowed: 'everyone', input: () => ({ refreshToken: 'not-a-live-token' }) },
  getSignInProviders: { allowed: 'everyone', input: () => ({}) },
  // Browser steps: a redirect for everyone (here back to /login: no provider is configured).
  oidcStart: { allowed: 'everyone', input: () => ({ provider: 'uni' }) },
  oidcCallback: { allowed: 'everyone', input: () => ({ state: 'not-this-browsers', code: 'x' }) },
  // A join link's entry without an e-mail: anyone holding the link (a new pseudonymous participant).
  enterThroughLink: {
    allowed: 'everyone',
    input: async (w) => {
      const { session } = await w.asOwner('createSession', { groupId: w.groupId });
      const sessionId = (session as { session_id: string }).session_id;
      const { joinLink } = await w.asOwner('createJoinLink', { sessionId });
      return { token: (joinLink as { token: string }).token, panelIds: {} };
    },
  },
  getUserFromToken: { allowed: signedIn, input: () => ({}) },
  getAllParticipants: { allowed: researchers, input: () => ({}) },
  // Runs last (see the order below): the owner deletes their own account.
  deleteUser: { allowed: owner, input: (w) => ({ email: w.people.owner.email }) },

  // studies
  getGroups: { allowed: researchers, input: () => ({}) },
  createGroup: { allowed: researchers, input: () => ({ title: 'Another group' }) },
  editGroup: { allowed: owner, input: (w) => ({ groupId: w.groupId, title: 'Renamed' }) },
  deleteGroup: {
    allowed: owner,
    input: async (w) => ({
      groupId: ((await w.asOwner('createGroup', {})).group as { group_id: string }).group_id,
    }),
  },
  getSessions: { allowed: owner, input: (w) => ({ groupId: w.groupId }) },
  createSession: { allowed: owner, input: (w) => ({ groupId: w.groupId }) },
  deleteSession: {
    allowed: owner,
    input: async (w) => ({
      sessionId: (
        (await w.asOwner('createSession', { groupId: w.groupId })).session as { session_id: string }
      ).session_id,
    }),
  },
  getSessionInfo: { allowed: members, input: (w) => ({ sessionId: w.sessionId }) },
  editSessionInfo: { allowed: owner, input: (w) => ({ sessionId: w.sessionId, track: 'Track B' }) },
  getParticipantSessions: { allowed: signedIn, input: () => ({}) },

  // participation (invitations, join links)
  getSessionPeople: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },
  resendInvitation: {
    allowed: owner,
    input: (w) => ({ sessionId: w.sessionId, email: w.people.participantIn.email }),
  },
  getJoinLink: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },
  createJoinLink: { allowed: owner, input: (w) => ({ sessionId: w.sessionId, maxParticipants: 50 }) },
  revokeJoinLink: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },
  // Anyone signed in may follow a link; each follows one of a session of its own (joining changes its scope).
  joinSession: {
    allowed: signedIn,
    input: async (w) => {
      const { session } = await w.asOwner('createSession', { groupId: w.groupId });
      const sessionId = (session as { session_id: string }).session_id;
      const { joinLink } = await w.asOwner('createJoinLink', { sessionId });
      return { token: (joinLink as { token: string }).token, panelIds: { PROLIFIC_PID: 'p1' } };
    },
  },

  // A join link's landing page: anyone holding the link.
  getJoinLinkInfo: {
    allowed: 'everyone',
    input: async (w) => {
      const { joinLink } = await w.asOwner('createJoinLink', { sessionId: w.sessionId });
      return { token: (joinLink as { token: string }).token };
    },
  },

  enterSession: { allowed: members, input: (w) => ({ sessionId: w.sessionId }) },

  // consent and withdrawal. Setting a text, agreeing and withdrawing each use a session
  // of their own: a text on the shared session would hold up participantIn's later calls, a
  // withdrawal takes them out of its scope.
  getSessionConsent: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },
  setSessionConsent: {
    allowed: owner,
    input: async (w) => ({ sessionId: await freshSession(w), text: `Consent ${++fresh}` }),
  },
  getMyConsent: { allowed: members, input: (w) => ({ sessionId: w.sessionId }) },
  acceptConsent: {
    allowed: participantIn,
    input: async (w) => {
      const sessionId = await freshSession(w);
      const text = `I agree (${++fresh}).`;
      await w.asOwner('setSessionConsent', { sessionId, text });
      return { sessionId, sha256: createHash('sha256').update(text).digest('hex') };
    },
  },
  withdrawFromSession: {
    allowed: participantIn,
    input: async (w) => ({ sessionId: await freshSession(w) }),
  },
  getSessionWithdrawals: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },

  // content
  getActions: { allowed: members, input: (w) => ({ sessionId: w.sessionId }) },
  addAction: {
    allowed: owner,
    input: (w) => ({ sessionId: w.sessionId, name: 'Clap', icon: 'celebration' }),
  },
  editAction: { allowed: owner, input: (w) => ({ actionId: w.actionId, color: '#ff0000' }) },
  deleteAction: {
    allowed: owner,
    input: async (w) => ({
      actionId: ((await w.asOwner('addAction', { sessionId: w.sessionId })).action as { action_id: string })
        .action_id,
    }),
  },
  getPrompts: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },
  addPrompt: {
    allowed: owner,
    input: (w) => ({ sessionId: w.sessionId, time: freshTime(), prompt: 'Why?' }),
  },
  editPrompt: { allowed: owner, input: (w) => ({ promptId: w.promptId, duration: 5 }) },
  deletePrompt: {
    allowed: owner,
    input: async (w) => ({
      promptId: (
        (await w.asOwner('addPrompt', { sessionId: w.sessionId, time: freshTime() })).prompt as {
          prompt_id: string;
        }
      ).prompt_id,
    }),
  },
  getVideoInfo: { allowed: members, input: (w) => ({ sessionId: w.sessionId }) },
  uploadVideo: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },
  deleteVideo: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },
  videoAsset: { allowed: members, input: (w) => ({ sessionId: w.sessionId, file: w.videoName }) },

  // records
  getMessages: { allowed: members, input: (w) => ({ sessionId: w.sessionId }) },
  addMessage: { allowed: members, input: (w) => ({ sessionId: w.sessionId, message: 'Hello' }) },
  editMessage: { allowed: owner, input: (w) => ({ messageId: w.messageId, message: 'Edited' }) },
  deleteMessage: {
    allowed: owner,
    input: async (w) => ({
      messageId: (
        (await w.asOwner('addMessage', { sessionId: w.sessionId, message: 'to delete' })).message as {
          message_id: string;
        }
      ).message_id,
    }),
  },
  getPixels: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },
  getPlayback: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },
  getRecordCounts: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },
  saveDeviceCheck: {
    allowed: members,
    input: (w) => ({
      sessionId: w.sessionId,
      browserName: 'Chrome',
      browserVersion: '131',
      camera: 'pass',
      microphone: 'pass',
      speakers: 'fail',
      stun: 'pass',
      turn: 'pass',
      rtt: 'pass',
      rttMs: 20,
    }),
  },
  getDeviceChecks: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },
  getExposureEvents: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },
  addPixel: {
    allowed: owner,
    input: (w) => ({ sessionId: w.sessionId, x: 0.5, y: 0.25, color: 'rgba(255, 0, 0, 1)' }),
  },
  deletePixel: {
    allowed: owner,
    input: async (w) => ({
      pixelId: (
        (await w.asOwner('addPixel', { sessionId: w.sessionId, x: 0.1, y: 0.1, color: 'n/a' })).pixel as {
          pixel_id: string;
        }
      ).pixel_id,
    }),
  },
  exportRecords: { allowed: owner, input: (w) => ({ sessionId: w.sessionId, kind: 'messages' }) },
  exportStudy: { allowed: owner, input: (w) => ({ sessionId: w.sessionId }) },

  // signal: a call's settings, of a chat session (the shared one is a video session)
  getCallSettings: { allowed: members, input: (w) => ({ sessionId: w.chatSessionId }) },
};

/**
 * A new session of the owner's with the participants in its scope (and no consent text), for a call
 * that changes it.
 */
async function freshSession(w: World): Promise<string> {
  const { session } = await w.asOwner('createSession', { groupId: w.groupId });
  const sessionId = (session as { session_id: string }).session_id;
  await w.asOwner('editSessionInfo', {
    sessionId,
    scope: [w.people.participantIn.email, w.people.participantPending.email],
  });
  return sessionId;
}

/** Calls a route of proto's table as someone, the way the web client does (an upload with a small MP4). */
const call = (stack: ComposedStack, name: RouteName, input: Input, accessToken?: string) =>
  (routes[name] as RouteDef).multipartFile
    ? stack.api.upload(name, input, { bytes: MP4, name: 'clip.mp4' }, accessToken)
    : stack.api.call(name, input, accessToken);

describe('authorization matrix over every route of proto', () => {
  let world: World;

  beforeAll(async () => {
    const stack = await startComposedStack('matrix');
    const people = {} as World['people'];
    for (const person of PEOPLE) {
      const type = person === 'owner' || person === 'otherResearcher' ? 'researcher' : 'participant';
      const { user, token } = await signUp(stack, `${person.toLowerCase()}@matrix.test`, person, type);
      people[person] = { email: user.email, id: user.id, accessToken: token };
    }
    const asOwner = async (name: RouteName, input: Input) => {
      const res = await call(stack, name, input, people.owner.accessToken);
      if (res.status !== 200) throw new Error(`${name} as owner: ${res.status} ${res.error?.message}`);
      return res.res as Record<string, unknown>;
    };
    const groupId = ((await asOwner('createGroup', { title: 'Study' })).group as { group_id: string })
      .group_id;
    /** A session of `type` with both participants in scope, asking for consent that participantIn gave. */
    const consentedSession = async (type: 'video' | 'chat') => {
      const id = ((await asOwner('createSession', { groupId })).session as { session_id: string }).session_id;
      await asOwner('editSessionInfo', {
        sessionId: id,
        type,
        scope: [people.participantIn.email, people.participantPending.email],
        // Opened, so its participants may write before the researcher's live page is open.
        state: 'live',
      });
      const text = `Consent to the ${type} session.`;
      await asOwner('setSessionConsent', { sessionId: id, text });
      const agreed = await call(
        stack,
        'acceptConsent',
        { sessionId: id, sha256: createHash('sha256').update(text).digest('hex') },
        people.participantIn.accessToken,
      );
      if (agreed.status !== 200) throw new Error(`acceptConsent: ${agreed.status} ${agreed.error?.message}`);
      return id;
    };
    const sessionId = await consentedSession('video');
    const chatSessionId = await consentedSession('chat');
    const actionId = ((await asOwner('addAction', { sessionId })).action as { action_id: string }).action_id;
    const promptId = (
      (await asOwner('addPrompt', { sessionId, time: '00:00:05' })).prompt as { prompt_id: string }
    ).prompt_id;
    const messageId = (
      (await asOwner('addMessage', { sessionId, message: 'Welcome' })).message as { message_id: string }
    ).message_id;
    const pixelId = (
      (await asOwner('addPixel', { sessionId, x: 0.2, y: 0.3, color: 'n/a' })).pixel as { pixel_id: string }
    ).pixel_id;
    const videoName = (await asOwner('uploadVideo', { sessionId })).name as string;
    world = {
      stack,
      people,
      groupId,
      sessionId,
      actionId,
      promptId,
      messageId,
      pixelId,
      videoName,
      chatSessionId,
      asOwner,
    };
  }, 120_000);

  afterAll(() => world?.stack.close());

  it('has an entry for every route of the table, and only for those', () => {
    expect(Object.keys(MATRIX).sort()).toEqual(routeList.map((route) => route.name).sort());
  });

  // Destructive calls last: deleting the video before the asset read, the owner's account at the very end.
  const LAST: RouteName[] = ['videoAsset', 'deleteVideo', 'deleteUser'];
  const order = [
    ...routeList.map((route) => route.name).filter((name) => !LAST.includes(name)),
    ...LAST.filter((name) => name in routes),
  ];

  it.each(order)('%s', async (name) => {
    const entry = MATRIX[name];
    const route: RouteDef = routes[name];
    for (const actor of ACTORS) {
      const token = actor === 'anonymous' ? undefined : world.people[actor].accessToken;
      const input = await entry.input(world, actor);
      const res = await call(world.stack, name, input, token);
      // A browser step of a sign-in answers every caller with a redirect (its refusals too).
      const success = route.produces === 'redirect' ? 302 : 200;
      const allowed = (person: Person) => entry.allowed === 'everyone' || entry.allowed.includes(person);
      const gated = actor === 'participantPending' && allowed('participantIn') && CONSENT_GATED.has(name);
      const expected =
        entry.allowed === 'everyone' ||
        (actor !== 'anonymous' &&
          (allowed(actor) || (actor === 'participantPending' && allowed('participantIn'))))
          ? gated
            ? 403
            : success
          : actor === 'anonymous'
            ? 401
            : 403;
      expect([name, actor, res.status]).toEqual([name, actor, expected]);
      if (gated) expect([name, actor, res.error?.code]).toEqual([name, actor, 'CONSENT_REQUIRED']);
      if (!route.produces || expected !== success) {
        // A SUCCESS answer has a `res` that passed the route's answer schema; an ERROR one has its message.
        const outcome = res.res !== undefined ? 'SUCCESS' : res.error ? 'ERROR' : 'neither';
        expect([name, actor, outcome]).toEqual([name, actor, expected === success ? 'SUCCESS' : 'ERROR']);
      }
      // Nobody but the owner sees another person (the participants directory shows each researcher
      // the people of their own sessions only).
      if (expected === 200 && actor !== 'owner') {
        const { text } = res;
        for (const other of PEOPLE.filter((person) => person !== actor)) {
          expect([name, actor, text.includes(world.people[other].email)]).toEqual([name, actor, false]);
          expect([name, actor, text.includes(world.people[other].id)]).toEqual([name, actor, false]);
        }
      }
    }
  });
});
