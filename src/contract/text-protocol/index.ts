export * from './parse';
export * from './render';
export * from './grammar';
export * from './source';
