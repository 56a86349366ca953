import type { z } from 'zod';
import { CLOCK_TIME_FORMAT_MESSAGE } from '../src/clock';
import { DEFAULT_ACTION_COLOR, EVERYONE, ICON_STYLES } from '../src/constants';
import { pixelColor } from '../src/fields';
import { DATA_EXPORT_TABLES } from '../src/export-codebook';
import { actionColor, iconName, iconStyle, routes, Scope, AUDIT_SNAPSHOT_FIELDS } from '../src/routes';
import type { AnswerOf, ParsedRequestOf, RequestOf } from '../src/routes';

/** The messages of a failed parse, by dotted path ('' for the root). */
const issuesOf = (schema: z.ZodType, input: unknown): Record<string, string> => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

const SESSION_ID = '0b8f7a52-4a1e-4f4e-9d53-2f6a3a1c9e10';
const OTHER_ID = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';

describe('ids', () => {
  it('accepts UUIDs and refuses anything else with a clear text', () => {
    expect(routes.getSessions.request.parse({ groupId: SESSION_ID })).toEqual({ groupId: SESSION_ID });
    expect(issuesOf(routes.getSessions.request, { groupId: '42' })).toEqual({ groupId: 'is not a valid id' });
    expect(issuesOf(routes.deletePixel.request, {})).toEqual({ pixelId: 'This field must not be empty' });
  });
});

describe('studies', () => {
  it(`takes a scope as '${EVERYONE}' or a list of e-mails, normalised and de-duplicated`, () => {
    expect(Scope.parse(EVERYONE)).toBe('Everyone');
    expect(Scope.parse([' Ada@Example.com', 'ada@example.com', 'bo@example.com'])).toEqual([
      'ada@example.com',
      'bo@example.com',
    ]);
    expect(Scope.parse([])).toEqual([]);
  });

  it('refuses a scope that is neither, saying which entry is wrong', () => {
    expect(issuesOf(Scope, 'everyone')).toEqual({
      '': "must be 'Everyone' or a list of e-mails (plain or JSON-encoded)",
    });
    expect(issuesOf(Scope, 7)).toEqual({
      '': "must be 'Everyone' or a list of e-mails (plain or JSON-encoded)",
    });
    expect(issuesOf(Scope, ['a@b.co', 'nope'])).toEqual({ '': 'entry 2 is not a valid e-mail address' });
  });

  it('lets /getGroups, /createGroup and /createSession leave out the e-mail (the server uses the caller)', () => {
    expect(routes.getGroups.request.parse({})).toEqual({});
    expect(routes.getParticipantSessions.request.parse({ email: 'A@b.co' })).toEqual({ email: 'a@b.co' });
    expect(routes.createGroup.request.parse({})).toEqual({});
    expect(routes.createSession.request.parse({ groupId: SESSION_ID })).toEqual({ groupId: SESSION_ID });
  });

  it('edits any session field but refuses an edit that changes nothing', () => {
    const edit = routes.editSessionInfo.request;
    expect(edit.parse({ sessionId: SESSION_ID, scope: ['x@y.co'], type: 'stream' })).toEqual({
      sessionId: SESSION_ID,
      scope: ['x@y.co'],
      type: 'stream',
    });
    expect(edit.parse({ sessionId: SESSION_ID, source: '' })).toEqual({ sessionId: SESSION_ID, source: '' });
    expect(issuesOf(edit, { sessionId: SESSION_ID, titel: 'typo' })).toEqual({
      '': 'nothing to change: send at least one of title, scope, type, track, source, completionUrl, state',
    });
    expect(issuesOf(edit, { sessionId: SESSION_ID, type: 'audio' })).toEqual({
      type: 'must be video, stream or chat',
    });
    expect(issuesOf(edit, { sessionId: SESSION_ID, title: '' })).toEqual({
      title: 'This field must not be empty',
    });
  });

  it('answers participant sessions with deleteDisabled always true', () => {
    const answer = routes.getParticipantSessions.answer;
    const row = { session_id: SESSION_ID, type: 'chat', title: 'T' };
    expect(answer.parse({ sessions: [{ ...row, deleteDisabled: true }] }).sessions[0]?.deleteDisabled).toBe(
      true,
    );
    expect(answer.safeParse({ sessions: [{ ...row, deleteDisabled: false }] }).success).toBe(false);
  });
});

describe('actions', () => {
  it.each(['#000', '#A1b2C3', '#a1b2c3d4', 'transparent', 'Transparent', ' #fff '])(
    'accepts colour %j',
    (color) => {
      expect(actionColor().safeParse(color).success).toBe(true);
    },
  );

  it('lower-cases a colour', () => {
    expect(actionColor().parse('#A1B2C3')).toBe('#a1b2c3');
    expect(actionColor().parse('TRANSPARENT')).toBe('transparent');
  });

  it.each(['', 'red', '#12', '#1234', '#12345', '#1234567', '#ggg', 'rgb(0,0,0)', '000000'])(
    'refuses colour %j',
    (color) => {
      expect(issuesOf(actionColor(), color)).toEqual({
        '': "must be a hex colour (#rgb, #rrggbb or #rrggbbaa) or 'transparent'",
      });
    },
  );

  it('takes the five icon styles and nothing else', () => {
    for (const style of ICON_STYLES) expect(iconStyle().parse(style)).toBe(style);
    expect(ICON_STYLES).toEqual(['filled', 'outlined', 'round', 'sharp', 'two-tone']);
    expect(issuesOf(iconStyle(), 'twotone')).toEqual({
      '': 'must be one of filled, outlined, round, sharp, two-tone',
    });
  });

  it('takes Material icon names only', () => {
    expect(iconName().parse('thumb_up')).toBe('thumb_up');
    expect(iconName().parse('3d_rotation')).toBe('3d_rotation');
    for (const bad of ['Thumb_Up', 'thumb-up', 'thumb up', '<svg>']) {
      expect(issuesOf(iconName(), bad)).toEqual({
        '': 'must be a Material icon name (lowercase letters, digits and underscores)',
      });
    }
  });

  it('fills the defaults of a new action (black, filled)', () => {
    const parsed = routes.addAction.request.parse({ sessionId: SESSION_ID });
    expect(parsed).toEqual({
      sessionId: SESSION_ID,
      name: 'New action',
      color: DEFAULT_ACTION_COLOR,
      icon: 'thumb_up',
      type: 'filled',
    });
    expect(DEFAULT_ACTION_COLOR).toBe('#000000');
  });

  it('refuses an action edit with nothing to change or a bad field', () => {
    const edit = routes.editAction.request;
    expect(edit.parse({ actionId: SESSION_ID, color: 'transparent' })).toEqual({
      actionId: SESSION_ID,
      color: 'transparent',
    });
    expect(issuesOf(edit, { actionId: SESSION_ID })).toEqual({
      '': 'nothing to change: send at least one of name, color, icon, type',
    });
    expect(issuesOf(edit, { actionId: SESSION_ID, type: 'bold' })).toEqual({
      type: 'must be one of filled, outlined, round, sharp, two-tone',
    });
  });
});

describe('prompts', () => {
  it('turns hh:mm:ss into seconds and fills defaults', () => {
    expect(routes.addPrompt.request.parse({ sessionId: SESSION_ID })).toEqual({
      sessionId: SESSION_ID,
      time: 0,
      duration: 0,
      prompt: '',
    });
    const parsed: ParsedRequestOf<'editPrompt'> = routes.editPrompt.request.parse({
      promptId: OTHER_ID,
      time: '00:01:05',
      duration: 2.5,
    });
    expect(parsed).toEqual({ promptId: OTHER_ID, time: 65, duration: 2.5 });
  });

  it('refuses a malformed time and a negative duration, saying why', () => {
    expect(issuesOf(routes.addPrompt.request, { sessionId: SESSION_ID, time: '1:5', duration: -1 })).toEqual({
      time: CLOCK_TIME_FORMAT_MESSAGE,
      duration: 'must not be negative',
    });
    expect(CLOCK_TIME_FORMAT_MESSAGE).toContain('hh:mm:ss');
    expect(issuesOf(routes.editPrompt.request, { promptId: OTHER_ID, duration: '5' })).toEqual({
      duration: 'must be a number of seconds',
    });
    expect(issuesOf(routes.editPrompt.request, { promptId: OTHER_ID })).toEqual({
      '': 'nothing to change: send at least one of time, duration, prompt',
    });
  });

  it('answers prompt times in seconds', () => {
    const answer: AnswerOf<'getPrompts'> = routes.getPrompts.answer.parse({
      prompts: [{ prompt_id: SESSION_ID, time: 65, duration: 0, prompt: 'Why?' }],
    });
    expect(answer.prompts[0]?.time).toBe(65);
    expect(
      routes.getPrompts.answer.safeParse({ prompts: [{ prompt_id: SESSION_ID, time: '00:01:05' }] }).success,
    ).toBe(false);
  });
});

describe('videos', () => {
  it('answers a null name when there is no video', () => {
    expect(routes.getVideoInfo.answer.parse({ name: null })).toEqual({ name: null });
    expect(routes.getVideoInfo.answer.parse({ name: 'clip.mp4' })).toEqual({ name: 'clip.mp4' });
  });
});

describe('records', () => {
  const pixel = { color: 'rgba(12, 34, 56, 255)', x: 0.25, y: 1, sessionId: SESSION_ID };

  it.each([
    [0, 0],
    [1, 1],
    [0.5, 0.999],
  ])('accepts a click at x=%p, y=%p', (x, y) => {
    expect(routes.addPixel.request.safeParse({ ...pixel, x, y }).success).toBe(true);
  });

  it.each([
    [-0.01, 0.5, 'x', 'must be from 0 to 1'],
    [1.01, 0.5, 'x', 'must be from 0 to 1'],
    [0.5, 2, 'y', 'must be from 0 to 1'],
    [0.5, '0.5', 'y', 'must be a number from 0 to 1'],
    [Number.NaN, 0.5, 'x', 'must be a number from 0 to 1'],
    [Infinity, 0.5, 'x', 'must be a number from 0 to 1'],
    [null, 0.5, 'x', 'must be a number from 0 to 1'],
  ])('refuses a click at x=%p, y=%p', (x, y, path, message) => {
    expect(issuesOf(routes.addPixel.request, { ...pixel, x, y })).toEqual({ [path]: message });
  });

  it('accepts the colours a click can carry and refuses others', () => {
    for (const color of [
      'rgba(0, 0, 0, 0)',
      'rgb(255,255,255)',
      'rgba(1,2,3,0.5)',
      'n/a',
      'N/A',
      '#abcdef',
    ]) {
      expect(pixelColor().safeParse(color).success).toBe(true);
    }
    for (const color of ['rgba(256, 0, 0, 1)', 'rgba(0,0)', 'blue', '', 'url(x)']) {
      expect(pixelColor().safeParse(color).success).toBe(false);
    }
  });

  it('keeps videoTime optional on the way in and nullable on the way out', () => {
    const request: RequestOf<'addPixel'> = { ...pixel };
    expect(routes.addPixel.request.parse(request)).not.toHaveProperty('videoTime');
    expect(issuesOf(routes.addPixel.request, { ...pixel, videoTime: -3 })).toEqual({
      videoTime: 'must not be negative',
    });
    const record = {
      pixel_id: OTHER_ID,
      time: '2025-01-02T03:04:05.678Z',
      name: 'Ada',
      color: 'n/a',
      x: 0,
      y: 1,
      sessionId: SESSION_ID,
      videoTime: null,
    };
    expect(routes.getPixels.answer.parse({ pixels: [record] }).pixels).toEqual([record]);
  });

  it('refuses a blank or too long chat message', () => {
    expect(issuesOf(routes.addMessage.request, { message: '  ', sessionId: SESSION_ID })).toEqual({
      message: 'This field must not be empty',
    });
    expect(issuesOf(routes.addMessage.request, { message: 'x'.repeat(2001), sessionId: SESSION_ID })).toEqual(
      {
        message: 'must be at most 2000 characters',
      },
    );
    expect(routes.addMessage.request.parse({ name: 'Ada', message: ' hi ', sessionId: SESSION_ID })).toEqual({
      name: 'Ada',
      message: 'hi',
      sessionId: SESSION_ID,
    });
  });

  it('exports one table of a session (identifiers only in the study export), and keeps the audit snapshot fields', () => {
    expect(routes.exportRecords.request.parse({ sessionId: SESSION_ID, kind: 'pixels' })).toEqual({
      sessionId: SESSION_ID,
      kind: 'pixels',
    });
    expect(issuesOf(routes.exportRecords.request, { sessionId: SESSION_ID, kind: 'identifiers' })).toEqual({
      kind: `must be one of ${DATA_EXPORT_TABLES.join(', ')}`,
    });
    expect(DATA_EXPORT_TABLES).toEqual(
      expect.arrayContaining(['sessions', 'actions', 'messages', 'pixels', 'prompts', 'playback']),
    );
    // The audit log's stored JSON has these fields: they do not follow the exports' columns.
    expect(AUDIT_SNAPSHOT_FIELDS.messages).toEqual([
      'message_id',
      'time',
      'videoTime',
      'name',
      'email',
      'message',
      'actionId',
    ]);
  });
});

describe('create answers', () => {
  it('answer the created object under its singular name', () => {
    const created = {
      createGroup: 'group',
      createSession: 'session',
      addAction: 'action',
      addPrompt: 'prompt',
      addMessage: 'message',
      addPixel: 'pixel',
    } as const;
    for (const [name, key] of Object.entries(created)) {
      const answer = routes[name as keyof typeof created].answer;
      expect(Object.keys(answer.shape)).toEqual([key]);
    }
  });

  it('answer a Message for edits and deletes', () => {
    for (const name of [
      'editGroup',
      'deleteGroup',
      'editAction',
      'deletePrompt',
      'editMessage',
      'deletePixel',
    ] as const) {
      expect(routes[name].answer.safeParse({ message: 'done' }).success).toBe(true);
      expect(Object.keys(routes[name].answer.shape)).toEqual(['message']);
    }
  });
});
