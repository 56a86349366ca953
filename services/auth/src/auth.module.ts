import { Global, Module, type DynamicModule } from '@nestjs/common';
import { DatabaseModule } from '@uis/kit';
import { AccountDeletionModule } from './account-deletion/account-deletion.module';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { Transactions } from './database/transactions';
import { InvitationsModule } from './invitations/invitations.module';
import { CreateAuthTables1763769600000 } from './migrations/1763769600000-create-auth-tables';
import { CreateProviderIdentities1795700000000 } from './migrations/1795700000000-create-provider-identities';
import { IdentityEntity } from './oidc/identity.entity';
import { OidcModule } from './oidc/oidc.module';
import { MagicLinkEntity } from './sign-in/magic-link.entity';
import { SignInModule } from './sign-in/sign-in.module';
import { RefreshTokenEntity } from './tokens/refresh-token.entity';
import { TokensModule } from './tokens/tokens.module';
import { UserEntity } from './users/user.entity';
import { UsersModule } from './users/users.module';

export const AUTH_SCHEMA = 'auth';

/** Auth's tables: its schema, entities and migrations (the module and the migrate entry). */
export const authDatabase = () => ({
  schema: AUTH_SCHEMA,
  entities: [UserEntity, MagicLinkEntity, RefreshTokenEntity, IdentityEntity],
  migrations: [CreateAuthTables1763769600000, CreateProviderIdentities1795700000000],
});

/** What every feature of auth uses: its config and transactions. */
@Global()
@Module({})
class AuthCoreModule {
  static forRoot(config: AuthConfig): DynamicModule {
    const providers = [{ provide: AUTH_CONFIG, useValue: config }, Transactions];
    return { module: AuthCoreModule, providers, exports: providers };
  }
}

/** Auth: the database, what every feature shares, and one module per feature. */
@Module({})
export class AuthModule {
  static forRoot(config: AuthConfig): DynamicModule {
    return {
      module: AuthModule,
      imports: [
        DatabaseModule.forService({
          ...authDatabase(),
          url: config.DATABASE_URL,
          migrateOnStart: config.MIGRATE_ON_START,
        }),
        AuthCoreModule.forRoot(config),
        UsersModule,
        TokensModule,
        SignInModule,
        OidcModule,
        InvitationsModule,
        AccountDeletionModule,
      ],
    };
  }
}
