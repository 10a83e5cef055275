/**
 * Groups tokenizer events into one small tree per child of the root element (nmap and masscan
 * put each `<host>` there), so a reader maps one record at a time while the file streams by.
 * A record in which the tokenizer found an error is reported as broken, with the first error's
 * offset, instead of being half-read.
 */
import { xmlEvents, type XmlStreamOptions } from './xml-stream.ts';

export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  /** Concatenated direct text content. */
  text: string;
  /** Byte offset of the element's `<`. */
  readonly offset: number;
}

export type XmlRecordEvent =
  | { readonly kind: 'root'; readonly element: XmlElement }
  | { readonly kind: 'record'; readonly element: XmlElement }
  | { readonly kind: 'error'; readonly message: string; readonly offset: number; readonly recordName?: string };

export function child(el: XmlElement, name: string): XmlElement | undefined {
  return el.children.find((c) => c.name === name);
}

export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

export async function* xmlRecords(input: AsyncIterable<Buffer | string>, options?: XmlStreamOptions): AsyncGenerator<XmlRecordEvent> {
  // path[0] is the root; path[1..] the open elements of the record being built.
  const path: XmlElement[] = [];
  let depth = 0;
  let brokenAt: { message: string; offset: number } | undefined;
  for await (const ev of xmlEvents(input, options)) {
    switch (ev.type) {
      case 'open': {
        const el: XmlElement = { name: ev.name, attrs: ev.attrs, children: [], text: '', offset: ev.offset };
        depth++;
        if (depth === 1) {
          path.length = 0;
          path.push(el);
          yield { kind: 'root', element: el };
        } else if (depth === 2) {
          path.length = 1;
          path.push(el);
          brokenAt = undefined;
        } else {
          path[path.length - 1].children.push(el);
          path.push(el);
        }
        break;
      }
      case 'close': {
        if (depth === 2) {
          const record = path[1];
          if (brokenAt) yield { kind: 'error', message: brokenAt.message, offset: brokenAt.offset, recordName: record.name };
          else yield { kind: 'record', element: record };
          brokenAt = undefined;
        }
        if (depth >= 2) path.pop();
        depth--;
        break;
      }
      case 'text':
        if (depth >= 2) path[path.length - 1].text += ev.text;
        break;
      case 'error':
        if (depth >= 2) brokenAt ??= { message: ev.message, offset: ev.offset };
        else yield { kind: 'error', message: ev.message, offset: ev.offset };
        break;
    }
  }
}
