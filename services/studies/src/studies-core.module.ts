import { Global, Module, type DynamicModule } from '@nestjs/common';
import { Transactions } from './database/sql';
import { SessionDataDeletion, sessionDataOwnersProvider } from './deletion/session-data-deletion.service';
import { LiveAccessNotifier } from './live-access/live-access.notifier';
import { STUDIES_CONFIG, type StudiesConfig } from './studies.config';

/** What every feature of studies uses: its config, transactions, the data owners and live listeners. */
@Global()
@Module({})
export class StudiesCoreModule {
  static forRoot(config: StudiesConfig): DynamicModule {
    const providers = [
      { provide: STUDIES_CONFIG, useValue: config },
      sessionDataOwnersProvider,
      SessionDataDeletion,
      LiveAccessNotifier,
      Transactions,
    ];
    return { module: StudiesCoreModule, providers, exports: providers };
  }
}
