import { Module } from '@nestjs/common';
import { ActionsModule } from '../actions/actions.module';
import { ContentTransactions } from '../content-transactions';
import { PromptsModule } from '../prompts/prompts.module';
import { VideosModule } from '../videos/videos.module';
import { SessionDataInternalController } from './session-data.internal.controller';
import { SessionDataService } from './session-data.service';

/** Deleting everything content holds for deleted sessions. */
@Module({
  imports: [ActionsModule, PromptsModule, VideosModule],
  controllers: [SessionDataInternalController],
  providers: [ContentTransactions, SessionDataService],
})
export class SessionDataModule {}
