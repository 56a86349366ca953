import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule } from '@uis/kit';
import { ConsentController } from './consent/consent.controller';
import { ConsentService } from './consent/consent.service';
import { WithdrawalService } from './consent/withdrawal.service';
import { SessionDataDeletion, sessionDataOwnersProvider } from './deletion/session-data-deletion.service';
import { GroupEntity } from './groups/group.entity';
import { GroupsController } from './groups/groups.controller';
import { GroupsService } from './groups/groups.service';
import { LiveAccessNotifier } from './live-access/live-access.notifier';
import { StudiesInternalController } from './internal/studies-internal.controller';
import { UserDataService } from './internal/user-data.service';
import { CreateStudiesTables1795307601284 } from './migrations/1795307601284-create-studies-tables';
import { AddSessionCompletionUrl1795400000000 } from './migrations/1795400000000-add-session-completion-url';
import { AddParticipation1795450000000 } from './migrations/1795450000000-add-participation';
import { CreateConsentTables1795500000000 } from './migrations/1795500000000-create-consent-tables';
import { AddPanelIdConflicts1795600000000 } from './migrations/1795600000000-add-panel-id-conflicts';
import { InvitationSender } from './participation/invitation-sender';
import { JoinLinkEntity } from './participation/join-link.entity';
import { ParticipantEntity } from './participation/participant.entity';
import { ParticipantsStore } from './participation/participants.store';
import { ParticipationController } from './participation/participation.controller';
import { ParticipationService } from './participation/participation.service';
import { SessionEntity } from './sessions/session.entity';
import { SessionsController } from './sessions/sessions.controller';
import { SessionsService } from './sessions/sessions.service';
import { STUDIES_CONFIG, type StudiesConfig } from './studies.config';

const entities = [GroupEntity, SessionEntity, ParticipantEntity, JoinLinkEntity];
export const STUDIES_SCHEMA = 'studies';

/** Studies's tables: its schema, entities and migrations (the module and the migrate entry). */
export const studiesDatabase = () => ({
  schema: STUDIES_SCHEMA,
  entities,
  migrations: [
    CreateStudiesTables1795307601284,
    AddSessionCompletionUrl1795400000000,
    AddParticipation1795450000000,
    CreateConsentTables1795500000000,
    AddPanelIdConflicts1795600000000,
  ],
});

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
        TypeOrmModule.forFeature(entities),
      ],
      controllers: [
        GroupsController,
        SessionsController,
        ParticipationController,
        ConsentController,
        StudiesInternalController,
      ],
      providers: [
        { provide: STUDIES_CONFIG, useValue: config },
        sessionDataOwnersProvider,
        SessionDataDeletion,
        LiveAccessNotifier,
        GroupsService,
        SessionsService,
        UserDataService,
        ParticipantsStore,
        InvitationSender,
        ParticipationService,
        ConsentService,
        WithdrawalService,
      ],
    };
  }
}
