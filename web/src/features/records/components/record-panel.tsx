import { SCREEN_TEXTS } from '@uis/proto/browser';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useApiQuery } from '../../../api/queries';
import { Icon } from '../../../components/ui/icon';
import { notify } from '../../../components/ui/toast';
import { exportRecords } from '../lib/export-records';
import { PANEL_TABS, isRecordTab, panelTabName, type PanelTab } from '../lib/record-tabs';
import { DeviceChecksTab } from './device-checks-tab';
import { MessagesTab } from './messages-tab';
import { PixelsTab } from './pixels-tab';
import { PlaybackTab } from './playback-tab';
import { PromptsTab } from './prompts-tab';
import '../records.css';
import { RECORD_PANEL_TEXTS } from '../../../i18n/en/records';

/**
 * The record panel of the session editor (spec section 2): Messages, Pixels and Prompts tabs, ours
 * the Playback tab (the researcher's play, pause, seek, rate and prompt firings), and Export.
 */
export function RecordPanel({ sessionId }: { sessionId: string }) {
  const [tab, setTab] = useState<PanelTab>('Messages');
  const [exporting, setExporting] = useState(false);
  const id = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  // The session editor has read it already (the same cached query): the download is named after it,
  // so Export waits for it.
  const info = useApiQuery('getSessionInfo', { sessionId });

  const exportTab = async () => {
    setExporting(true);
    try {
      if (isRecordTab(tab) && info.data) await exportRecords(sessionId, info.data.sessionInfo.title, tab);
    } catch (cause) {
      // The spec has no text for a failed export: the server's own message says what went wrong.
      notify.error(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setExporting(false);
    }
  };

  // Arrow keys move between tabs (the ARIA tabs pattern).
  const onTabKey = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = (index + step + PANEL_TABS.length) % PANEL_TABS.length;
    setTab(PANEL_TABS[next] ?? tab);
    tabs.current[next]?.focus();
  };

  return (
    <section className="record-panel" aria-label={RECORD_PANEL_TEXTS.records}>
      <div className="record-panel-header">
        <div className="record-tabs" role="tablist" aria-label={RECORD_PANEL_TEXTS.recordKind}>
          {PANEL_TABS.map((name, index) => (
            <button
              key={name}
              ref={(button) => {
                tabs.current[index] = button;
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${index}`}
              aria-selected={name === tab}
              aria-controls={`${id}-panel`}
              tabIndex={name === tab ? 0 : -1}
              className={`record-tab${name === tab ? ' selected' : ''}`}
              onClick={() => setTab(name)}
              onKeyDown={(event) => onTabKey(event, index)}
            >
              {panelTabName(name)}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="button secondary record-export"
          disabled={exporting || !isRecordTab(tab) || !info.data}
          onClick={() => void exportTab()}
        >
          <Icon name="download" /> {SCREEN_TEXTS.exportButton}
        </button>
      </div>
      <div
        className="record-panel-body"
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${PANEL_TABS.indexOf(tab)}`}
      >
        {tab === 'Messages' ? <MessagesTab sessionId={sessionId} /> : null}
        {tab === 'Pixels' ? <PixelsTab sessionId={sessionId} /> : null}
        {tab === 'Prompts' ? <PromptsTab sessionId={sessionId} /> : null}
        {tab === 'Playback' ? <PlaybackTab sessionId={sessionId} /> : null}
        {tab === 'deviceChecks' ? <DeviceChecksTab sessionId={sessionId} /> : null}
      </div>
    </section>
  );
}
