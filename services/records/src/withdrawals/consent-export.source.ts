import { Injectable } from '@nestjs/common';
import { InternalClient } from '@uis/kit';
import {
  SESSION_IDS_PER_DELETE,
  internalRoutes,
  type InternalAnswerOf,
  type StudyExportRow,
} from '@uis/proto';
import type { CsvRows } from '../export/csv-stream';
import { isoInstant } from '../export/export-cells';
import type { ParticipantIds } from '../export/participant-ids';
import { WithdrawalsService } from './withdrawals.service';

type ConsentTable = 'consent-texts' | 'consents' | 'withdrawals';
type Exported = InternalAnswerOf<'studiesConsentExport'>;

/** Where each consent table's rows of one session come from (the exports' row sources). */
export type ConsentRowSources = { [T in ConsentTable]: (sessionId: string) => CsvRows };

/** The consent tables' rows, and every text exactly as shown (STUDY_EXPORT_CONSENT_TEXTS). */
export interface PreparedConsent {
  rows: ConsentRowSources;
  exactTexts: Exported['texts'];
}

const bySession = <R extends { sessionId: string }>(rows: readonly R[]): Map<string, R[]> => {
  const map = new Map<string, R[]>();
  for (const row of rows) {
    const list = map.get(row.sessionId);
    if (list) list.push(row);
    else map.set(row.sessionId, [row]);
  }
  return map;
};

/**
 * The study export's consent tables: the texts and agreements are studies', asked before the first
 * byte (a failure there is still a JSON refusal, as for content's prompts) in calls of up to
 * SESSION_IDS_PER_DELETE sessions, and held while the archive is written (a row per version and per
 * participant: small beside the records); the withdrawals are records' own, read a page at a time.
 */
@Injectable()
export class ConsentExportSource {
  constructor(
    private readonly internal: InternalClient,
    private readonly withdrawals: WithdrawalsService,
  ) {}

  async prepare(sessionIds: readonly string[], people: ParticipantIds): Promise<PreparedConsent> {
    const texts: Exported['texts'] = [];
    const acceptances: Exported['acceptances'] = [];
    for (let i = 0; i < sessionIds.length; i += SESSION_IDS_PER_DELETE) {
      const answer = await this.internal.call(internalRoutes.studiesConsentExport, {
        sessionIds: sessionIds.slice(i, i + SESSION_IDS_PER_DELETE),
      });
      texts.push(...answer.texts);
      acceptances.push(...answer.acceptances);
    }
    const textsOf = bySession(texts);
    const acceptancesOf = bySession(acceptances);
    const rows: ConsentRowSources = {
      'consent-texts': (sessionId) =>
        (textsOf.get(sessionId) ?? []).map((text): StudyExportRow<'consent-texts'> => ({
          session_id: sessionId,
          version: text.version,
          sha256: text.sha256,
          created_at: isoInstant(text.createdAt),
          text: text.text,
        })),
      consents: (sessionId) =>
        (acceptancesOf.get(sessionId) ?? []).map((row): StudyExportRow<'consents'> => ({
          session_id: sessionId,
          participant_id: people.of(row.email),
          version: row.version,
          sha256: row.sha256,
          accepted_at: isoInstant(row.acceptedAt),
          withdrawn_at: isoInstant(row.withdrawnAt),
        })),
      withdrawals: (sessionId) => this.withdrawals.exportRows(sessionId, people),
    };
    return { rows, exactTexts: texts };
  }
}
