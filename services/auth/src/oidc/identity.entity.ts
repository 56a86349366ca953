import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** An account at a provider (its issuer and subject) and the user it signs in as. */
@Entity({ name: 'provider_identities' })
export class IdentityEntity {
  @PrimaryColumn({ type: 'text' })
  issuer!: string;

  @PrimaryColumn({ type: 'text' })
  subject!: string;

  @Index()
  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
