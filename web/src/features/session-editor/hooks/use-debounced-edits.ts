import { DEBOUNCE_MS } from '../../../config/ui-constants';
import { useCallback, useEffect, useRef, useState } from 'react';
import { DebouncedEdits, mergeServer, type Fields } from '../lib/debounced-edits';

/** A refused edit: the server's message and the fields it is about (shown next to them). */
export interface EditError<T> {
  fields: (keyof T)[];
  message: string;
}

/** How the last save of a field went: shown next to it until it is edited again. */
export type SaveStatus = { saved: true } | { saved: false; reason: string };

/** `status` for each of `fields`. */
const statusFor = <T>(fields: (keyof T)[], status: SaveStatus): Partial<Record<keyof T, SaveStatus>> =>
  Object.fromEntries(fields.map((field) => [field, status])) as Partial<Record<keyof T, SaveStatus>>;

/** The field a server message names (`time: must be ...`), else every field of the refused patch. */
function errorFields<T>(message: string, patchFields: (keyof T)[]): (keyof T)[] {
  const named = /^([A-Za-z]+):/.exec(message)?.[1];
  const field = patchFields.find((key) => key === named);
  return field === undefined ? patchFields : [field];
}

export interface EditOptions<T> {
  /** Shown in the form but never sent: invalid values, or values the server derives itself. */
  localOnly?: readonly (keyof T)[];
}

/**
 * A form over one server object: `draft` is what the inputs show, `edit` changes it at once and
 * sends the changed fields after a pause of DEBOUNCE_MS (several fields edited within the pause go
 * in one call). Leaving the page sends what is still queued.
 */
export function useDebouncedEdits<T extends Fields>(
  server: T,
  send: (patch: Partial<T>) => Promise<unknown>,
) {
  const [draft, setDraft] = useState(server);
  const [error, setError] = useState<EditError<T> | null>(null);
  const [statuses, setStatuses] = useState<Partial<Record<keyof T, SaveStatus>>>({});
  /** The last save of any field (a list item shows one status for all its fields). */
  const [lastStatus, setLastStatus] = useState<SaveStatus | null>(null);
  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  }, [send]);

  const [edits] = useState(
    () =>
      new DebouncedEdits<T>(server, {
        delayMs: DEBOUNCE_MS,
        send: (patch) => sendRef.current(patch),
        onError: (patch, cause) => {
          const message = cause instanceof Error ? cause.message : String(cause);
          setError({ fields: errorFields<T>(message, Object.keys(patch)), message });
          // The whole patch was refused, so none of its fields is saved.
          const status: SaveStatus = { saved: false, reason: message };
          setStatuses((shown) => ({ ...shown, ...statusFor<T>(Object.keys(patch), status) }));
          setLastStatus(status);
        },
        onSaved: (patch) => {
          setError((shown) => (shown?.fields.some((field) => field in patch) ? null : shown));
          const status: SaveStatus = { saved: true };
          setStatuses((shown) => ({ ...shown, ...statusFor<T>(Object.keys(patch), status) }));
          setLastStatus(status);
        },
      }),
  );

  useEffect(() => {
    edits.setBaseline(server);
    setDraft((shown) => mergeServer(shown, server, edits.editing()));
  }, [server, edits]);

  useEffect(() => () => void edits.flush(), [edits]);

  const edit = useCallback(
    (patch: Partial<T>, options: EditOptions<T> = {}) => {
      setDraft((shown) => ({ ...shown, ...patch }));
      // A field typed in again is neither saved nor refused until its next save answers.
      setStatuses((shown) => {
        const kept = { ...shown };
        for (const field of Object.keys(patch) as (keyof T)[]) delete kept[field];
        return kept;
      });
      setLastStatus(null);
      const localOnly = options.localOnly ?? [];
      edits.drop(localOnly);
      const sendable = { ...patch };
      for (const field of localOnly) delete sendable[field];
      if (Object.keys(sendable).length > 0) edits.queue(sendable);
    },
    [edits],
  );

  const flush = useCallback(() => edits.flush(), [edits]);

  /** The server's message when `field` was refused in the last edit that named it. */
  const errorOf = useCallback(
    (field: keyof T): string | undefined => (error?.fields.includes(field) ? error.message : undefined),
    [error],
  );

  /** How the last save of `field` went, until it is edited again; null before any. */
  const statusOf = useCallback((field: keyof T): SaveStatus | null => statuses[field] ?? null, [statuses]);

  return { draft, edit, flush, errorOf, statusOf, lastStatus };
}
