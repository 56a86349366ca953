import { UI_TEXTS, type PlaybackEvent } from '@uis/proto/browser';
import { useApiAllPages, useApiQuery } from '../../../api/queries';
import { ShowMoreButton, useShownItems } from '../../../components/ui/show-more';
import { RECORD_PAGE_SIZE } from '../lib/record-tabs';
import { RecordTime } from './record-time';
import { VideoTime } from './video-time';
import { COMMON_TEXTS, PLAYBACK_EVENT_TEXTS } from '../../../i18n/en/common';
import { RECORD_PANEL_TEXTS, RECORD_TABLE_TEXTS } from '../../../i18n/en/records';

const EVENT_TEXT: Record<PlaybackEvent, string> = {
  ...PLAYBACK_EVENT_TEXTS,
  prompt: COMMON_TEXTS.prompt,
};

/**
 * The playback log: every play, pause, seek and speed change of the researcher's player, and every
 * prompt it fired, with the wall time and the video time. Read-only: realtime writes it.
 */
export function PlaybackTab({ sessionId }: { sessionId: string }) {
  const log = useApiAllPages('getPlayback', { sessionId }, { errorText: COMMON_TEXTS.playbackLogError });
  const prompts = useApiQuery('getPrompts', { sessionId }, { errorText: UI_TEXTS.errorFetchingPrompts });
  const promptText = new Map(prompts.data?.prompts.map((prompt) => [prompt.prompt_id, prompt.prompt]));
  const list = log.data?.playback ?? [];
  const shown = useShownItems(list, RECORD_PAGE_SIZE);
  if (list.length === 0)
    return (
      <p className="record-empty">
        {log.isLoading ? RECORD_PANEL_TEXTS.loadingPlaybackLog : RECORD_PANEL_TEXTS.nothingPlayed}
      </p>
    );
  return (
    <>
      <table className="record-table">
        <thead>
          <tr>
            <th scope="col">{RECORD_TABLE_TEXTS.time}</th>
            <th scope="col">{RECORD_TABLE_TEXTS.video}</th>
            <th scope="col">{RECORD_TABLE_TEXTS.event}</th>
            <th scope="col">{PLAYBACK_EVENT_TEXTS.rate}</th>
            <th scope="col">{RECORD_TABLE_TEXTS.who}</th>
          </tr>
        </thead>
        <tbody>
          {shown.visible.map((entry) => (
            <tr key={entry.playback_id}>
              <td>
                <RecordTime iso={entry.time} />
              </td>
              <td>
                <VideoTime seconds={entry.videoTime} />
              </td>
              <td>
                <span className={`record-event record-event-${entry.event}`}>{EVENT_TEXT[entry.event]}</span>
                {entry.promptId ? (
                  <span className="record-prompt-text">
                    {' '}
                    {promptText.get(entry.promptId) ?? RECORD_PANEL_TEXTS.deletedPrompt}
                  </span>
                ) : null}
              </td>
              <td>{`${entry.playbackRate}×`}</td>
              <td className="record-who">{entry.name}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ShowMoreButton hidden={shown.hidden} onClick={shown.showMore} />
    </>
  );
}
