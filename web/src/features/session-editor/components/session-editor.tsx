import { UI_TEXTS } from '@uis/proto/browser';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApiQuery } from '../../../api/queries';
import { Icon } from '../../../components/ui/icon';
import { IconButton } from '../../../components/ui/icon-button';
import { useLayout } from '../../../layout/use-layout';
import { PATHS, liveSessionPath } from '../../../routes';
import { ParticipationSections } from '../../invitations/components/participation-sections';
import { RecordPanel } from '../../records/components/record-panel';
import { StudyExportButton } from '../../study-export/components/study-export-button';
import { ReplaySection } from '../../replay/components/replay-section';
import { SessionStateBadge } from './session-state-badge';
import { ConsentSection } from '../../consent/components/consent-section';
import { ActionsRow } from './actions-row';
import { PromptsList } from './prompts-list';
import { SessionFields } from './session-fields';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import '../session-editor.css';
import { EDITOR_TEXTS } from '../../../i18n/en/editor';

/**
 * The session editor (spec section 2): a top bar with the back arrow and Start, the edit panel
 * (session fields, actions, prompts) and the record panel. Side by side on a wide screen; stacked
 * when narrow (under 850 or mobile), where the edit panel folds behind a toggle.
 */
export function SessionEditor({ sessionId }: { sessionId: string }) {
  const layout = useLayout();
  const navigate = useNavigate();
  const info = useApiQuery('getSessionInfo', { sessionId }, { errorText: UI_TEXTS.errorGettingSessionInfo });
  const [panelOpen, setPanelOpen] = useState(true);
  const collapsed = layout.editPanelNarrow && !panelOpen;
  const title = info.data?.sessionInfo.title;

  return (
    <div className={`session-editor${layout.editPanelNarrow ? ' narrow' : ''}`}>
      <header className="session-editor-top">
        <IconButton
          icon="arrow_back"
          label={EDITOR_TEXTS.backToDashboard}
          onClick={() => navigate(PATHS.dashboard)}
        />
        <h1 className={`session-editor-caption${layout.smallCaption ? ' small' : ''}`} title={title}>
          {title ?? EDITOR_TEXTS.session}
        </h1>
        {info.data?.sessionInfo.state ? (
          <SessionStateBadge sessionId={sessionId} state={info.data.sessionInfo.state} />
        ) : null}
        <StudyExportButton target={{ sessionId }} />
        <button
          type="button"
          className="button session-editor-start"
          onClick={() => navigate(liveSessionPath(sessionId))}
        >
          <Icon name="play_arrow" /> {EDITOR_TEXTS.start}
        </button>
      </header>
      <div className="session-editor-body">
        <section
          className={`session-editor-panel edit-panel${collapsed ? ' collapsed' : ''}`}
          aria-labelledby="edit-panel-heading"
        >
          <div className="edit-panel-header">
            <h2 id="edit-panel-heading">{EDITOR_TEXTS.editSession}</h2>
            {layout.editPanelNarrow ? (
              <IconButton
                icon={panelOpen ? 'expand_less' : 'expand_more'}
                label={panelOpen ? EDITOR_TEXTS.hideEditPanel : EDITOR_TEXTS.showEditPanel}
                aria-expanded={panelOpen}
                aria-controls="edit-panel-content"
                onClick={() => setPanelOpen((open) => !open)}
              />
            ) : null}
          </div>
          {/* Hidden, not unmounted: edits still waiting for their pause keep their values. */}
          <div id="edit-panel-content" className="edit-panel-content" hidden={collapsed}>
            {info.data ? (
              <SessionFields key={sessionId} sessionId={sessionId} info={info.data.sessionInfo} />
            ) : (
              <p className="editor-empty">
                {info.isError ? COMMON_TEXTS.sessionNotLoaded : EDITOR_TEXTS.loadingSession}
              </p>
            )}
            {info.data ? (
              <>
                <ActionsRow sessionId={sessionId} />
                <PromptsList sessionId={sessionId} />
                <ConsentSection sessionId={sessionId} />
                <ParticipationSections sessionId={sessionId} scope={info.data.sessionInfo.scope} />
              </>
            ) : null}
          </div>
        </section>
        {/* Records of a session that cannot be loaded would only add more failures. */}
        {info.data ? <RecordPanel sessionId={sessionId} /> : null}
      </div>
      {/* The session replayed under both panels: its video, heatmap and timeline. */}
      {info.data ? <ReplaySection sessionId={sessionId} info={info.data.sessionInfo} /> : null}
    </div>
  );
}
