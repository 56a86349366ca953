import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A mailed sign-in link. Only the token's SHA-256 is kept, so a database leak signs no one in. */
@Entity({ name: 'magic_links' })
export class MagicLinkEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index()
  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'token_hash', type: 'text', unique: true })
  tokenHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  /** A provider account to link to the user who uses the link (minted for a provider's sign-in). */
  @Column({ name: 'identity_issuer', type: 'text', nullable: true })
  identityIssuer!: string | null;

  @Column({ name: 'identity_subject', type: 'text', nullable: true })
  identitySubject!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
