import { Module, forwardRef } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { GroupsController } from './groups.controller';
import { GroupsInternalController } from './groups.internal.controller';
import { GroupsRepository } from './groups.repository';
import { GroupsService } from './groups.service';

/** Groups: a researcher's folders of sessions (a group goes with its sessions, hence the cycle). */
@Module({
  imports: [forwardRef(() => SessionsModule)],
  controllers: [GroupsController, GroupsInternalController],
  providers: [GroupsRepository, GroupsService],
  exports: [GroupsService],
})
export class GroupsModule {}
