import { Module } from '@nestjs/common';
import { SecureServer } from './secure-server';

/** The secure port beside the insecure one the application listens on itself. */
@Module({ providers: [SecureServer], exports: [SecureServer] })
export class ServingModule {}
