import { Module, type DynamicModule } from '@nestjs/common';
import { DatabaseModule } from '@uis/kit';
import { ConsentModule } from './consent/consent.module';
import { GroupsModule } from './groups/groups.module';
import { CreateStudiesTables1795307601284 } from './migrations/1795307601284-create-studies-tables';
import { AddSessionCompletionUrl1795400000000 } from './migrations/1795400000000-add-session-completion-url';
import { AddParticipation1795450000000 } from './migrations/1795450000000-add-participation';
import { CreateConsentTables1795500000000 } from './migrations/1795500000000-create-consent-tables';
import { AddPanelIdConflicts1795600000000 } from './migrations/1795600000000-add-panel-id-conflicts';
import { AddSessionState1795800000000 } from './migrations/1795800000000-add-session-state';
import { IndexParticipantsByEmail1795800000100 } from './migrations/1795800000100-index-participants-by-email';
import { ParticipationModule } from './participation/participation.module';
import { SessionsModule } from './sessions/sessions.module';
import { StudiesCoreModule } from './studies-core.module';
import type { StudiesConfig } from './studies.config';
import { UserDataModule } from './user-data/user-data.module';

export const STUDIES_SCHEMA = 'studies';

/** Studies's tables: its schema and migrations (the module and the migrate entry); no entities, see README. */
export const studiesDatabase = () => ({
  schema: STUDIES_SCHEMA,
  entities: [],
  migrations: [
    CreateStudiesTables1795307601284,
    AddSessionCompletionUrl1795400000000,
    AddParticipation1795450000000,
    CreateConsentTables1795500000000,
    AddPanelIdConflicts1795600000000,
    AddSessionState1795800000000,
    IndexParticipantsByEmail1795800000100,
  ],
});

/** Studies: the database, what every feature shares, and one module per feature. */
@Module({})
export class StudiesModule {
  static forRoot(config: StudiesConfig): DynamicModule {
    return {
      module: StudiesModule,
      imports: [
        DatabaseModule.forService({
          ...studiesDatabase(),
          url: config.DATABASE_URL,
          migrateOnStart: config.MIGRATE_ON_START,
        }),
        StudiesCoreModule.forRoot(config),
        GroupsModule,
        SessionsModule,
        ParticipationModule,
        ConsentModule,
        UserDataModule,
      ],
    };
  }
}
