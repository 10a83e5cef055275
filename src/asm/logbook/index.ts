export { createLogbookCursor, readLogbook, presentLogbookEvent, LOGBOOK_PAGE_SIZE, type LogbookPage } from './read-logbook.ts';
export { cursorFromRequest, decodeCursor, encodeCursor, LOGBOOK_EVENT_TYPES, type LogbookCursor } from './logbook-cursor.ts';
