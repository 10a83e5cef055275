export { generateDemo, demoStream, demoHostStream, demoDomains, DEMO_DEFAULT_NOW, DEMO_DEFAULT_SEED, type DemoData, type DemoOptions } from './generate-demo.ts';
export type { DemoCertificate } from './generate-certificates.ts';
export type { DemoHost, DemoHostVersion, DemoHostDocument } from './generate-hosts.ts';
export type { ServiceDoc } from './render-service.ts';
export type { SoftwareDoc } from './software.ts';
