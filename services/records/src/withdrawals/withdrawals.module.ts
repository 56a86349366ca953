import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { DeviceChecksModule } from '../device-checks/device-checks.module';
import { ExposureModule } from '../exposure/exposure.module';
import { MessagesModule } from '../messages/messages.module';
import { PixelsModule } from '../pixels/pixels.module';
import { ConsentExportSource } from './consent-export.source';
import { WithdrawalsController } from './withdrawals.controller';
import { WithdrawalsInternalController } from './withdrawals.internal.controller';
import { WithdrawalsRepository } from './withdrawals.repository';
import { WithdrawalsService } from './withdrawals.service';

/** Participants' withdrawals: carrying one out, the owner's list, and the study export's consent tables. */
@Module({
  imports: [AuditModule, DeviceChecksModule, ExposureModule, MessagesModule, PixelsModule],
  controllers: [WithdrawalsController, WithdrawalsInternalController],
  providers: [WithdrawalsRepository, WithdrawalsService, ConsentExportSource],
  exports: [WithdrawalsRepository, ConsentExportSource],
})
export class WithdrawalsModule {}
