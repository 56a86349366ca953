import { z } from 'zod';
import { id } from '../fields';

/** Why a request naming one session or one group was refused. */
export const SESSION_OR_GROUP_TEXTS = {
  neither: 'Give the sessionId of a session or the groupId of a group.',
  both: 'Give a sessionId or a groupId, not both.',
} as const;

/** A request about one session (sessionId) or every session of a group (groupId): exactly one of them. */
export const sessionOrGroupRequest = () =>
  z
    .object({ sessionId: id().optional(), groupId: id().optional() })
    .superRefine(({ sessionId, groupId }, ctx) => {
      if (sessionId === undefined && groupId === undefined)
        ctx.addIssue({ code: 'custom', message: SESSION_OR_GROUP_TEXTS.neither });
      else if (sessionId !== undefined && groupId !== undefined)
        ctx.addIssue({ code: 'custom', message: SESSION_OR_GROUP_TEXTS.both });
    });
