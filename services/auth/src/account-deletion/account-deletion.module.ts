import { Module } from '@nestjs/common';
import { OidcModule } from '../oidc/oidc.module';
import { SignInModule } from '../sign-in/sign-in.module';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { AccountDeletionController } from './account-deletion.controller';
import { AccountDeletionService, userDataOwnersProvider } from './account-deletion.service';

/** Deleting one's account: the other services' data first, then everything auth holds of it. */
@Module({
  imports: [UsersModule, TokensModule, SignInModule, OidcModule],
  controllers: [AccountDeletionController],
  providers: [userDataOwnersProvider, AccountDeletionService],
})
export class AccountDeletionModule {}
