export {
  addSavedQuery,
  deleteSavedQuery,
  editSavedQuery,
  getSavedQuery,
  listSavedQueries,
  presentSavedQuery,
  MAX_SAVED_QUERY_PAGE_SIZE,
  type SavedQueryListInput,
} from './saved-queries.ts';
