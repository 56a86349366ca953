/** The researcher's dashboard's own English texts (the dashboard route's chunk carries this module). */
export const DASHBOARD_TEXTS = {
  groups: 'Groups',
  groupTitle: 'Group title',
  hideGroups: 'Hide groups',
  showGroups: 'Show groups',
  noGroups: 'No groups yet.',
  doneEditing: 'Done editing',
  editGroupTitle: 'Edit group title',
  deleteGroup: 'Delete group',
} as const;
