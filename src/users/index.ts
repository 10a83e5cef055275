export * from './credentials.ts';
export * from './accounts.ts';
