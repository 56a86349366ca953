import { Module, forwardRef } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SignInModule } from '../sign-in/sign-in.module';
import { UsersModule } from '../users/users.module';
import { IdentityEntity } from './identity.entity';
import { OidcController } from './oidc.controller';
import { OidcService } from './oidc.service';
import { ProviderIdentitiesRepository } from './provider-identities.repository';

/** Sign-in with OpenID Connect providers and the provider accounts linked to users. */
@Module({
  imports: [TypeOrmModule.forFeature([IdentityEntity]), UsersModule, forwardRef(() => SignInModule)],
  controllers: [OidcController],
  providers: [ProviderIdentitiesRepository, OidcService],
  exports: [ProviderIdentitiesRepository],
})
export class OidcModule {}
