import { UI_TEXTS, formatClockTime } from '@uis/proto/browser';
import { useApiQuery } from '../../../api/queries';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import { RECORD_PANEL_TEXTS, RECORD_TABLE_TEXTS } from '../../../i18n/en/records';

/** The session's prompts as the record panel lists them: time, duration and text (edited in the edit panel). */
export function PromptsTab({ sessionId }: { sessionId: string }) {
  const prompts = useApiQuery('getPrompts', { sessionId }, { errorText: UI_TEXTS.errorFetchingPrompts });
  const list = prompts.data?.prompts ?? [];
  if (list.length === 0)
    return (
      <p className="record-empty">
        {prompts.isLoading ? RECORD_PANEL_TEXTS.loadingPrompts : RECORD_PANEL_TEXTS.noPrompts}
      </p>
    );
  return (
    <table className="record-table">
      <thead>
        <tr>
          <th scope="col">{RECORD_TABLE_TEXTS.time}</th>
          <th scope="col">{COMMON_TEXTS.durationSeconds}</th>
          <th scope="col">{COMMON_TEXTS.prompt}</th>
        </tr>
      </thead>
      <tbody>
        {list.map((prompt) => (
          <tr key={prompt.prompt_id}>
            <td>{formatClockTime(prompt.time)}</td>
            <td>{prompt.duration}</td>
            <td className="record-prompt-text">{prompt.prompt}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
