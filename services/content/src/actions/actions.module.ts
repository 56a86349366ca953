import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActionEntity } from './action.entity';
import { ActionsController } from './actions.controller';
import { ActionsInternalController } from './actions.internal.controller';
import { ActionsRepository } from './actions.repository';
import { ActionsService } from './actions.service';

/** A session's actions (reaction icons). */
@Module({
  imports: [TypeOrmModule.forFeature([ActionEntity])],
  controllers: [ActionsController, ActionsInternalController],
  providers: [ActionsRepository, ActionsService],
  exports: [ActionsRepository],
})
export class ActionsModule {}
