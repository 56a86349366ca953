import type { UserType } from '@uis/proto/browser';
import { USER_TYPE_LABELS } from '../../i18n/en/sign-up';

/**
 * A user-type option of sign-up by its accessible name, for tests: the name is the option's visible
 * text, the type and then what it is for, and the participant's mentions researchers, so the match is
 * on the start (no word boundary: jsdom joins the two texts without a space).
 */
export const userTypeOptionName = (type: UserType): RegExp => new RegExp(`^${USER_TYPE_LABELS[type]}`);
