export { naabuSource, mapNaabuRecord } from './naabu-source.ts';
export { httpxSource, mapHttpxRecord } from './httpx-source.ts';
export { tlsxSource, mapTlsxRecord } from './tlsx-source.ts';
