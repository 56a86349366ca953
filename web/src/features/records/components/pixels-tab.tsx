import { STREAM_PIXEL_COLOR, UI_TEXTS } from '@uis/proto/browser';
import { useApiAllPages, useApiMutation } from '../../../api/queries';
import { IconButton } from '../../../components/ui/icon-button';
import { ShowMoreButton, useShownItems } from '../../../components/ui/show-more';
import { ratioPercent } from '../lib/record-format';
import { RECORD_PAGE_SIZE } from '../lib/record-tabs';
import { RecordTime } from './record-time';
import { VideoTime } from './video-time';
import { RECORD_PANEL_TEXTS, RECORD_TABLE_TEXTS } from '../../../i18n/en/records';

/** Recorded clicks (spec section 2): who, formatted time, video time, x, y, a colour swatch and delete. */
export function PixelsTab({ sessionId }: { sessionId: string }) {
  const pixels = useApiAllPages('getPixels', { sessionId }, { errorText: UI_TEXTS.errorFetchingPixels });
  const deletePixel = useApiMutation('deletePixel', {
    errorText: UI_TEXTS.errorDeletingPixel,
    invalidates: ['getPixels'],
  });
  const list = pixels.data?.pixels ?? [];
  const shown = useShownItems(list, RECORD_PAGE_SIZE);
  if (list.length === 0)
    return (
      <p className="record-empty">
        {pixels.isLoading ? RECORD_PANEL_TEXTS.loadingClicks : RECORD_PANEL_TEXTS.noClicks}
      </p>
    );
  return (
    <>
      <table className="record-table">
        <thead>
          <tr>
            <th scope="col">{RECORD_TABLE_TEXTS.who}</th>
            <th scope="col">{RECORD_TABLE_TEXTS.time}</th>
            <th scope="col">{RECORD_TABLE_TEXTS.video}</th>
            <th scope="col">X</th>
            <th scope="col">Y</th>
            <th scope="col">{RECORD_TABLE_TEXTS.colour}</th>
            <th scope="col">
              <span className="visually-hidden">{RECORD_TABLE_TEXTS.delete}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.visible.map((pixel) => (
            <tr key={pixel.pixel_id}>
              <td className="record-who">{pixel.name}</td>
              <td>
                <RecordTime iso={pixel.time} />
              </td>
              <td>
                <VideoTime seconds={pixel.videoTime} />
              </td>
              <td>{ratioPercent(pixel.x)}</td>
              <td>{ratioPercent(pixel.y)}</td>
              <td>
                {pixel.color === STREAM_PIXEL_COLOR ? (
                  <span className="record-no-color">{STREAM_PIXEL_COLOR}</span>
                ) : (
                  <span
                    className="record-swatch"
                    role="img"
                    aria-label={pixel.color}
                    title={pixel.color}
                    style={{ background: pixel.color }}
                  />
                )}
              </td>
              <td className="record-cell-icon">
                <IconButton
                  icon="delete"
                  label={RECORD_PANEL_TEXTS.deleteClick}
                  disabled={deletePixel.isPending}
                  onClick={() => deletePixel.mutate({ pixelId: pixel.pixel_id })}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ShowMoreButton hidden={shown.hidden} onClick={shown.showMore} />
    </>
  );
}
