import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule } from '@uis/kit';
import { SessionDataDeletion, sessionDataOwnersProvider } from './deletion/session-data-deletion.service';
import { GroupEntity } from './groups/group.entity';
import { GroupsController } from './groups/groups.controller';
import { GroupsService } from './groups/groups.service';
import { StudiesInternalController } from './internal/studies-internal.controller';
import { UserDataService } from './internal/user-data.service';
import { CreateStudiesTables1795307601284 } from './migrations/1795307601284-create-studies-tables';
import { SessionEntity } from './sessions/session.entity';
import { SessionsController } from './sessions/sessions.controller';
import { SessionsService } from './sessions/sessions.service';
import type { StudiesConfig } from './studies.config';

const entities = [GroupEntity, SessionEntity];
export const STUDIES_SCHEMA = 'studies';

@Module({})
export class StudiesModule {
  static forRoot(config: StudiesConfig): DynamicModule {
    return {
      module: StudiesModule,
      imports: [
        DatabaseModule.forService({
          url: config.DATABASE_URL,
          schema: STUDIES_SCHEMA,
          entities,
          migrations: [CreateStudiesTables1795307601284],
        }),
        TypeOrmModule.forFeature(entities),
      ],
      controllers: [GroupsController, SessionsController, StudiesInternalController],
      providers: [
        sessionDataOwnersProvider,
        SessionDataDeletion,
        GroupsService,
        SessionsService,
        UserDataService,
      ],
    };
  }
}
