import { Module } from '@nestjs/common';
import { ConsentModule } from '../consent/consent.module';
import { GroupsModule } from '../groups/groups.module';
import { ParticipationModule } from '../participation/participation.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UserDataInternalController } from './user-data.internal.controller';
import { UserDataService } from './user-data.service';

/** A deleted account's groups, scopes, participations and agreements. */
@Module({
  imports: [GroupsModule, SessionsModule, ParticipationModule, ConsentModule],
  controllers: [UserDataInternalController],
  providers: [UserDataService],
})
export class UserDataModule {}
