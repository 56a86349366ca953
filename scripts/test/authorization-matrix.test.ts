import { sendInput } from '@uis/kit/testing';
import fs from 'node:fs';
import path from 'node:path';
import { promoteUser } from '@uis/auth';
import { routeList, routes, type RouteDef, type RouteName } from '@uis/proto';
import { outboxLink, startComposedStack, type ComposedStack } from './composed-stack';

/**
 * Every REST route of proto's table, called as each kind of caller, against the composed services:
 * the answer must be success for the callers the matrix allows, 403 for other signed-in callers and
 * 401 for anonymous ones (public routes: success for everyone). A route without an entry fails.
 */

const ACTORS = ['anonymous', 'participantIn', 'participantOut', 'otherResearcher', 'owner'] as const;
type Actor = (typeof ACTORS)[number];
type Person = Exclude<Actor, 'anonymous'>;
const PEOPLE: readonly Person[] = ['participantIn', 'participantOut', 'otherResearcher', 'owner'];

const MP4 = fs.readFileSync(path.join(__dirname, '../../services/content/test/fixtures/tiny.mp4'));

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
  setNewUser: { allowed: 'everyone', input: (_, actor) => ({ email: freshEmail(actor), name: 'Fresh' }) },
  getUserTokens: {
    allowed: 'everyone',
    input: async (w, actor) => {
      const email = freshEmail(actor);
      await w.stack.http().post(routes.setNewUser.path).send({ email, name: 'Returning' }).expect(200);
      await w.stack.http().post(routes.magicLogin.path).send({ destination: email }).expect(200);
      const link = await outboxLink(w.stack.outboxDir, email);
      return { email, token: link.searchParams.get('token') };
    },
  },
  getAccessTokenFromRefreshToken: {
    allowed: 'everyone',
    input: async (w, actor) => {
      const res = await w.stack
        .http()
        .post(routes.setNewUser.path)
        .send({ email: freshEmail(actor), name: 'R' });
      return { refreshToken: (res.body as { res: { refreshToken: string } }).res.refreshToken };
    },
  },
  logout: { allowed: 'everyone', input: () => ({ refreshToken: 'not-a-live-token' }) },
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

  // signal
  getCallSettings: { allowed: signedIn, input: () => ({}) },
};

/** Calls a route of proto's table as someone, the way the web client does. */
async function call(stack: ComposedStack, name: RouteName, input: Input, accessToken?: string) {
  const route: RouteDef = routes[name];
  let target = route.path;
  const rest: Input = { ...input };
  for (const param of route.path.match(/:\w+/g) ?? []) {
    const key = param.slice(1);
    target = target.replace(param, encodeURIComponent(String(rest[key])));
    delete rest[key];
  }
  const auth = accessToken ? { authorization: `Bearer ${accessToken}` } : {};
  if (!route.multipartFile) return sendInput(stack.http(), route.method, target, rest).set(auth);
  const req = stack.http().post(target).set(auth);
  for (const [key, value] of Object.entries(rest)) void req.field(key, String(value));
  return req.attach(route.multipartFile, MP4, { filename: 'clip.mp4', contentType: 'video/mp4' });
}

describe('authorization matrix over every route of proto', () => {
  let world: World;

  beforeAll(async () => {
    const stack = await startComposedStack('matrix');
    const people = {} as World['people'];
    for (const person of PEOPLE) {
      const email = `${person.toLowerCase()}@matrix.test`;
      const signUp = await stack
        .http()
        .post(routes.setNewUser.path)
        .send({ email, name: person })
        .expect(200);
      let { accessToken, refreshToken } = (
        signUp.body as { res: { accessToken: string; refreshToken: string } }
      ).res;
      if (person === 'owner' || person === 'otherResearcher') {
        await promoteUser(stack.env.DATABASE_URL!, email);
        const fresh = await stack
          .http()
          .post(routes.getAccessTokenFromRefreshToken.path)
          .send({ refreshToken });
        ({ accessToken, refreshToken } = (fresh.body as { res: typeof signUp.body.res }).res);
      }
      const me = await call(stack, 'getUserFromToken', {}, accessToken);
      people[person] = { email, id: (me.body as { res: { user: { id: string } } }).res.user.id, accessToken };
    }
    const asOwner = async (name: RouteName, input: Input) => {
      const res = await call(stack, name, input, people.owner.accessToken);
      if (res.status !== 200) throw new Error(`${name} as owner: ${res.status} ${JSON.stringify(res.body)}`);
      return (res.body as { res: Record<string, unknown> }).res;
    };
    const groupId = ((await asOwner('createGroup', { title: 'Study' })).group as { group_id: string })
      .group_id;
    const sessionId = ((await asOwner('createSession', { groupId })).session as { session_id: string })
      .session_id;
    await asOwner('editSessionInfo', { sessionId, scope: [people.participantIn.email] });
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
    world = { stack, people, groupId, sessionId, actionId, promptId, messageId, pixelId, videoName, asOwner };
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
      const expected =
        entry.allowed === 'everyone' || (actor !== 'anonymous' && entry.allowed.includes(actor))
          ? 200
          : actor === 'anonymous'
            ? 401
            : 403;
      const body = res.body as { status?: string };
      expect([name, actor, res.status]).toEqual([name, actor, expected]);
      if (!route.produces || expected !== 200) {
        expect([name, actor, body.status]).toEqual([name, actor, expected === 200 ? 'SUCCESS' : 'ERROR']);
      }
      // Nobody but the owner (and researchers browsing the participants directory) sees another person.
      if (expected === 200 && actor !== 'owner' && name !== 'getAllParticipants') {
        const text = res.text ?? JSON.stringify(res.body);
        for (const other of PEOPLE.filter((person) => person !== actor)) {
          expect([name, actor, text.includes(world.people[other].email)]).toEqual([name, actor, false]);
          expect([name, actor, text.includes(world.people[other].id)]).toEqual([name, actor, false]);
        }
      }
    }
  });
});
