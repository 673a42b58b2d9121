import 'reflect-metadata';

const DESCRIPTION = Symbol('setting description');

/** What a setting means, for `--help` and the README's settings table. */
export const Describe = (text: string): PropertyDecorator => (target, key) => Reflect.defineMetadata(DESCRIPTION, text, target, key);

export const descriptionOf = (prototype: object, key: string): string => Reflect.getMetadata(DESCRIPTION, prototype, key) ?? '';
