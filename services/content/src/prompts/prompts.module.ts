import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PromptEntity } from './prompt.entity';
import { PromptsController } from './prompts.controller';
import { PromptsInternalController } from './prompts.internal.controller';
import { PromptsRepository } from './prompts.repository';
import { PromptsService } from './prompts.service';

/** A session's timed prompts. */
@Module({
  imports: [TypeOrmModule.forFeature([PromptEntity])],
  controllers: [PromptsController, PromptsInternalController],
  providers: [PromptsRepository, PromptsService],
  exports: [PromptsRepository],
})
export class PromptsModule {}
