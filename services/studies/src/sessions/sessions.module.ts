import { Module, forwardRef } from '@nestjs/common';
import { ConsentModule } from '../consent/consent.module';
import { GroupsModule } from '../groups/groups.module';
import { ParticipationModule } from '../participation/participation.module';
import { SessionSettingsInternalController } from './session-settings.internal.controller';
import { SessionSettingsRepository } from './session-settings.repository';
import { SessionsController } from './sessions.controller';
import { SessionsInternalController } from './sessions.internal.controller';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

/** Sessions: their settings, scope and type, and the access answer every other service asks. */
@Module({
  imports: [
    forwardRef(() => GroupsModule),
    forwardRef(() => ParticipationModule),
    forwardRef(() => ConsentModule),
  ],
  controllers: [SessionsController, SessionsInternalController, SessionSettingsInternalController],
  providers: [SessionsRepository, SessionsService, SessionSettingsRepository],
  exports: [SessionsRepository, SessionsService],
})
export class SessionsModule {}
