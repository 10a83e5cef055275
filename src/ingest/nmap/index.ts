export { nmapXmlSource, nmaprunScanner } from './nmap-xml-source.ts';
export { mapNmapHost, bannerFromServiceFp, unixSecondsToIso } from './nmap-host.ts';
export { censysServiceName } from './service-names.ts';
export { xmlEvents, decodeEntities, type XmlEvent, type XmlStreamOptions } from './xml-stream.ts';
export { xmlRecords, child, childrenNamed, type XmlElement, type XmlRecordEvent } from './xml-records.ts';
