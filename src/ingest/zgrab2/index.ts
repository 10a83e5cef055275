export { zgrab2Source, makeZgrab2Source, mapZgrab2Line, normalIp, ZGRAB2_STATUSES, type Zgrab2Options } from './zgrab2-source.ts';
export { jsonHead, type JsonHead } from './read-lines.ts';
export { serverHeaderSoftware, technologySoftware, sshSoftware, softwareFor, cpe23 } from './software.ts';
export { handshakeTls, tlsVersionName } from './tls-handshake.ts';
export { zgrabHeaders, mapHttpResult } from './http-result.ts';
export { mapSshResult } from './ssh-result.ts';
export { htmlTitle, htmlTags } from './html.ts';
