import { UI_TEXTS, formatClockTime } from '@uis/proto/browser';
import type { Prompt } from '@uis/proto';
import { useCallback, useId, useMemo } from 'react';
import { useApiMutation } from '../../../api/queries';
import { IconButton } from '../../../components/ui/icon-button';
import { useDebouncedEdits } from '../hooks/use-debounced-edits';
import { SaveStatus } from './save-status';
import { EDITOR_TEXTS } from '../../../i18n/en/editor';

/** A prompt as its inputs hold it: time as hh:mm:ss text, duration as the number's text. */
interface PromptFields extends Record<string, string> {
  prompt: string;
  time: string;
  duration: string;
}

const fieldsOf = (prompt: Prompt): PromptFields => ({
  prompt: prompt.prompt,
  time: formatClockTime(prompt.time),
  duration: String(prompt.duration),
});

/**
 * One prompt: text, time (hh:mm:ss) and duration (seconds), edited debounced by DEBOUNCE_MS. The
 * server checks the time: a refused field is marked invalid and the prompt's save status says why.
 */
export function PromptItem({ prompt }: { prompt: Prompt }) {
  const server = useMemo(() => fieldsOf(prompt), [prompt]);
  const { mutateAsync } = useApiMutation('editPrompt', {
    errorText: UI_TEXTS.errorEditingPrompt,
    invalidates: ['getPrompts'],
  });
  const removePrompt = useApiMutation('deletePrompt', {
    errorText: UI_TEXTS.errorDeletingPrompt,
    invalidates: ['getPrompts'],
  });
  const send = useCallback(
    ({ prompt: text, time, duration }: Partial<PromptFields>) =>
      mutateAsync({
        promptId: prompt.prompt_id,
        ...(text === undefined ? {} : { prompt: text }),
        ...(time === undefined ? {} : { time: time.trim() }),
        ...(duration === undefined ? {} : { duration: Number(duration) }),
      }),
    [mutateAsync, prompt.prompt_id],
  );
  const { draft, edit, errorOf, lastStatus } = useDebouncedEdits(server, send);
  const id = useId();

  return (
    <li className="editor-prompt">
      <div className="editor-prompt-fields">
        <input
          id={`${id}-time`}
          className="text-input editor-prompt-time"
          aria-label={EDITOR_TEXTS.promptTime}
          placeholder={EDITOR_TEXTS.promptTimePlaceholder}
          aria-invalid={errorOf('time') ? true : undefined}
          value={draft.time}
          onChange={(event) => edit({ time: event.target.value })}
        />
        <input
          id={`${id}-duration`}
          className="text-input editor-prompt-duration"
          aria-label={EDITOR_TEXTS.promptDuration}
          placeholder={EDITOR_TEXTS.promptDurationPlaceholder}
          type="number"
          min={0}
          step={1}
          aria-invalid={errorOf('duration') ? true : undefined}
          value={draft.duration}
          onChange={(event) => {
            // An emptied box is being retyped: nothing to send until it holds a number.
            const duration = event.target.value;
            edit({ duration }, { localOnly: duration.trim() === '' ? ['duration'] : [] });
          }}
        />
        <textarea
          id={`${id}-text`}
          className="text-input editor-prompt-text"
          aria-label={EDITOR_TEXTS.promptText}
          placeholder={EDITOR_TEXTS.promptText}
          rows={1}
          value={draft.prompt}
          onChange={(event) => edit({ prompt: event.target.value })}
        />
        <IconButton
          icon="delete"
          label={EDITOR_TEXTS.deletePrompt}
          disabled={removePrompt.isPending}
          onClick={() => removePrompt.mutate({ promptId: prompt.prompt_id })}
        />
      </div>
      <p className="editor-item-status">
        <SaveStatus status={lastStatus} />
      </p>
    </li>
  );
}
