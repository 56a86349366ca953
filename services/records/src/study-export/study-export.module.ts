import { Module } from '@nestjs/common';
import { RecordsExportModule } from '../export/records-export.module';
import { StudyExportController } from './study-export.controller';
import { StudyExportService } from './study-export.service';

/** `/exportStudy`: a session or a group as one verifiable ZIP. */
@Module({
  imports: [RecordsExportModule],
  controllers: [StudyExportController],
  providers: [StudyExportService],
})
export class StudyExportModule {}
