export { masscanJsonSource, masscanNdjsonSource, mapMasscanJson } from './masscan-json-source.ts';
export { masscanListSource, parseMasscanListLine } from './masscan-list-source.ts';
export { masscanXmlSource } from './masscan-xml-source.ts';
export { bannerService, statusService, unescapeMasscan } from './masscan-service.ts';
export { jsonObjects, type JsonChunk } from './json-objects.ts';
