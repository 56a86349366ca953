/** The guide page's own English texts (the guide route's chunk carries this module). */
export const GUIDE_TEXTS = {
  backToDashboard: 'Back to the dashboard',
  openGuide: "Researcher's guide",
} as const;
