import { ApiError } from '../../api/client';
import { notify } from '../../components/ui/toast';

/**
 * What the server said about a refused request, when it is meant for the user: its 4xx messages
 * explain themselves ("already exists, please sign in", "confirm your e-mail first"); a 5xx or a
 * network failure says nothing useful beyond the spec's text.
 */
export const serverExplanation = (error: unknown): string | undefined =>
  error instanceof ApiError && error.httpStatus < 500 ? error.message : undefined;

/** The spec's toast text (section 8), with the server's explanation underneath when it has one. */
export function toastFailure(text: string, error: unknown): void {
  notify.error(text, serverExplanation(error));
}
