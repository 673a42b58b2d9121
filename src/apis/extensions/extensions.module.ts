import { Module } from '@nestjs/common';
import { registerApiGroup } from '../../registry/define-kind';
import { EXTENSIONS } from './extensions.group';
import { EXTENSIONS_KINDS } from './extensions.kinds';

/** The extensions/v1beta1 API group. */
@Module({ providers: [registerApiGroup(EXTENSIONS, EXTENSIONS_KINDS)] })
export class ExtensionsModule {}
