export * from './credentials.ts';
export * from './accounts.ts';
export * from './quota-meter.ts';
